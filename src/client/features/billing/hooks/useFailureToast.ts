import { useEffect, useRef } from 'react';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';

/**
 * Toasts `title` (with the server's message) when a polled query starts failing, once: a call
 * polled every 5 s that keeps failing does not toast every 5 s. It toasts again after a success.
 */
export function useFailureToast(error: unknown, title: string) {
  const failing = useRef(false);
  useEffect(() => {
    if (!error) {
      failing.current = false;
      return;
    }
    if (failing.current) return;
    failing.current = true;
    toast({
      title,
      description: error instanceof ApiError ? error.reply?.message : undefined,
      variant: 'destructive',
    });
  }, [error, title]);
}
