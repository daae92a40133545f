import { useCallback, useRef, useState } from 'react';

type Submission<Args, Result> =
  | { status: 'idle'; args?: undefined; result?: undefined; error?: undefined }
  | { status: 'pending'; args: Args; result?: undefined; error?: undefined }
  | { status: 'done'; args: Args; result: Result; error?: undefined }
  | { status: 'failed'; args: Args; result?: undefined; error: unknown };

interface Callbacks<Result> {
  onSuccess?: (result: Result) => void;
  onError?: (error: unknown) => void;
}

/**
 * One API call a form makes, with its state (idle, pending, done, failed): what the signed-out
 * forms need of TanStack Query's useMutation, without the query client (about 15 KB of their
 * 100 KB budget, decision 024). The signed-in app keeps useMutation.
 */
export function useSubmission<Args, Result>(action: (args: Args) => Promise<Result>) {
  const [state, setState] = useState<Submission<Args, Result>>({ status: 'idle' });
  // a reply that arrives after reset() (or after a newer call) is not shown
  const latest = useRef(0);

  const run = useCallback(
    (args: Args, { onSuccess, onError }: Callbacks<Result> = {}) => {
      const call = ++latest.current;
      setState({ status: 'pending', args });
      action(args).then(
        (result) => {
          if (call !== latest.current) return;
          setState({ status: 'done', args, result });
          onSuccess?.(result);
        },
        (error: unknown) => {
          if (call !== latest.current) return;
          setState({ status: 'failed', args, error });
          onError?.(error);
        },
      );
    },
    [action],
  );

  const reset = useCallback(() => {
    latest.current += 1;
    setState({ status: 'idle' });
  }, []);

  return { ...state, run, reset, isPending: state.status === 'pending', isSuccess: state.status === 'done' };
}
