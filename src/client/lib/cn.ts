import { clsx, type ClassValue } from 'clsx';

let merge = (classes: string) => classes;

/**
 * Joins class names. Once the signed-in app has called `mergeClassesWith(twMerge)` (before its
 * first render), later Tailwind utilities override earlier ones. The signed-out pages do without
 * tailwind-merge, a tenth of their 100 KB budget (decision 024): no class they give a component
 * conflicts with the component's own, which e2e/signed-out-first-load.e2e.ts checks on each of them.
 */
export function cn(...inputs: ClassValue[]) {
  return merge(clsx(inputs));
}

/** Sets how conflicting classes are resolved from now on (tailwind-merge's `twMerge`). */
export function mergeClassesWith(merger: (classes: string) => string) {
  merge = merger;
}
