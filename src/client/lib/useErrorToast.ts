import { useEffect } from 'react';
import { toast } from '@/components/ui/use-toast';
import { ApiError, serverMessage } from './api';

/** Toasts `title` (destructive) each time `error` becomes set, with the server's message if it sent one. */
export function useErrorToast(error: unknown, title: string) {
  useEffect(() => {
    if (!error) return;
    const description = error instanceof ApiError ? error.reply?.message : undefined;
    toast({ title, description, variant: 'destructive' });
  }, [error, title]);
}

/** Toasts a failed action: the spec's title, the server's message or the spec's fallback. */
export function toastFailure(title: string, err: unknown, fallback = 'Something went wrong. Please try again.') {
  toast({ title, description: serverMessage(err, fallback), variant: 'destructive' });
}
