import { useSyncExternalStore } from 'react';
import type { ToastVariant } from './toast';

export interface ToastMessage {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

interface ToastEntry extends ToastMessage {
  id: number;
  open: boolean;
}

/** Spec §7: one toast at a time; a new one replaces the one showing. */
let entries: ToastEntry[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: ToastEntry[]) {
  entries = next;
  listeners.forEach((listener) => listener());
}

export function toast(message: ToastMessage) {
  emit([{ ...message, id: nextId++, open: true }]);
}

export function dismissToast(id: number) {
  emit(entries.map((entry) => (entry.id === id ? { ...entry, open: false } : entry)));
  // keep the closed entry until its exit animation has run
  setTimeout(() => emit(entries.filter((entry) => entry.id !== id || entry.open)), 300);
}

export function useToasts(): ToastEntry[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => entries,
  );
}

const STASH_KEY = 'pendingToast';

/** Shows the toast on the next page load (for full-page navigations such as after login). */
export function toastAfterReload(message: ToastMessage) {
  try {
    sessionStorage.setItem(STASH_KEY, JSON.stringify(message));
  } catch {
    // storage unavailable: the welcome toast is skipped
  }
}

/** Shows the toast stashed by toastAfterReload, once. */
export function showStashedToast() {
  try {
    const stashed = sessionStorage.getItem(STASH_KEY);
    if (!stashed) return;
    sessionStorage.removeItem(STASH_KEY);
    toast(JSON.parse(stashed) as ToastMessage);
  } catch {
    // malformed or unavailable: nothing to show
  }
}
