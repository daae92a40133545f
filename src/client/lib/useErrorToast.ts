import { useEffect } from 'react';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from './api';

/** Toasts `title` (destructive) each time `error` becomes set, with the server's message if it sent one. */
export function useErrorToast(error: unknown, title: string) {
  useEffect(() => {
    if (!error) return;
    const description = error instanceof ApiError ? error.reply?.message : undefined;
    toast({ title, description, variant: 'destructive' });
  }, [error, title]);
}
