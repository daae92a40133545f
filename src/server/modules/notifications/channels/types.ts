/** What a channel reports about one attempt. */
export type SendResult =
  | { ok: true; providerId: string | null; responseStatus: number | null; latencyMs: number }
  | {
      ok: false;
      error: string;
      permanent: boolean;
      responseStatus: number | null;
      latencyMs: number | null;
      /**
       * The provider asked to be called again after this long (Slack's 429 Retry-After): the job
       * waits exactly that, and the attempt is not counted against its max_attempts.
       */
      retryAfterMs?: number;
    };

export const failure = (
  error: string,
  opts: { permanent?: boolean; responseStatus?: number | null; latencyMs?: number | null; retryAfterMs?: number } = {},
): SendResult => ({
  ok: false,
  error,
  permanent: opts.permanent ?? false,
  responseStatus: opts.responseStatus ?? null,
  latencyMs: opts.latencyMs ?? null,
  ...(opts.retryAfterMs !== undefined ? { retryAfterMs: opts.retryAfterMs } : {}),
});

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
