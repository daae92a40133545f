import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useEffect, useRef, type ComponentProps, type ReactNode, type RefObject } from 'react';
import { cn } from '@/lib/cn';

export const Dialog = DialogPrimitive.Root;

/**
 * Where focus goes back to when a dialog closes. Radix gives it back only to a Dialog.Trigger, or
 * else to what had focus when the dialog opened, which for our dialogs is often nothing useful:
 * they are opened by plain buttons and by menu items (gone once the menu closes), and a field
 * with autoFocus takes focus before Radix looks. Without this, closing a dialog leaves focus on
 * the page's body and a keyboard user starts again from the top. So the last few focused elements
 * are remembered, each menu item with its menu's button; an opening dialog notes them, and when it
 * closes gives focus to the latest of them outside itself that is still on the page.
 */
interface FocusOrigin {
  element: HTMLElement;
  /** The button of the menu the element is in. */
  menuButton: HTMLElement | null;
}

const focusHistory: FocusOrigin[] = [];
let trackingFocus = false;

function trackFocus() {
  if (trackingFocus) return;
  trackingFocus = true;
  document.addEventListener(
    'focusin',
    (event) => {
      if (!(event.target instanceof HTMLElement)) return;
      const menu = event.target.closest('[role="menu"]');
      const menuButton = menu?.id
        ? document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`)
        : null;
      const seen = focusHistory.findIndex(({ element }) => element === event.target);
      if (seen >= 0) focusHistory.splice(seen, 1);
      focusHistory.unshift({ element: event.target, menuButton });
      focusHistory.length = Math.min(focusHistory.length, 10);
    },
    true,
  );
}

const onPage = (element: HTMLElement | null): element is HTMLElement =>
  Boolean(element?.isConnected && element.getClientRects().length > 0);

/**
 * Focuses where focus was before `dialog` opened. That element may be disabled for a moment (a
 * row's actions button while the change made in the dialog is saved): it is tried again for a
 * second, unless focus went elsewhere meanwhile.
 */
function giveFocusBack(dialog: Node, before: FocusOrigin[], attempt = 0) {
  const target = before
    .filter(({ element }) => !dialog.contains(element))
    .flatMap(({ element, menuButton }) => [element, menuButton])
    .find(onPage);
  if (!target) return;
  if (!target.matches(':disabled')) {
    target.focus();
    return;
  }
  const focusIsLost = document.activeElement === null || document.activeElement === document.body;
  if (attempt < 20 && focusIsLost) setTimeout(() => giveFocusBack(dialog, before, attempt + 1), 50);
}

/** Notes, as the dialog opens, where focus was before it. */
function RememberFocus({ intoRef }: { intoRef: RefObject<FocusOrigin[]> }) {
  useEffect(() => {
    intoRef.current = [...focusHistory];
  }, [intoRef]);
  return null;
}

interface DialogContentProps extends ComponentProps<typeof DialogPrimitive.Content> {
  title: string;
  description?: ReactNode;
}

export function DialogContent({
  title,
  description,
  className,
  children,
  onCloseAutoFocus,
  ...props
}: DialogContentProps) {
  const before = useRef<FocusOrigin[]>([]);
  useEffect(trackFocus, []);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50 animate-fade-in dark:bg-slate-950/75" />
      <DialogPrimitive.Content
        className={cn(
          'fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto',
          'rounded-lg border border-line bg-surface p-6 shadow-xl focus:outline-none animate-fade-in',
          className,
        )}
        {...(description ? {} : { 'aria-describedby': undefined })}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (event.defaultPrevented || !(event.target instanceof Node)) return;
          event.preventDefault();
          giveFocusBack(event.target, before.current);
        }}
        {...props}
      >
        <RememberFocus intoRef={before} />
        <div className="mb-5 space-y-1 pr-8">
          <DialogPrimitive.Title className="text-lg font-semibold text-fg">{title}</DialogPrimitive.Title>
          {description && (
            <DialogPrimitive.Description className="text-sm text-fg-subtle">{description}</DialogPrimitive.Description>
          )}
        </div>
        {children}
        <DialogPrimitive.Close
          aria-label="Close"
          className="absolute right-4 top-4 rounded-md p-1 text-fg-faint hover:bg-surface-muted hover:text-fg-secondary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <X aria-hidden className="size-4" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
