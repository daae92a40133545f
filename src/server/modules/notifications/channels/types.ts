/** What a channel reports about one attempt. */
export type SendResult =
  | { ok: true; providerId: string | null; responseStatus: number | null; latencyMs: number }
  | { ok: false; error: string; permanent: boolean; responseStatus: number | null; latencyMs: number | null };

export const failure = (
  error: string,
  opts: { permanent?: boolean; responseStatus?: number | null; latencyMs?: number | null } = {},
): SendResult => ({
  ok: false,
  error,
  permanent: opts.permanent ?? false,
  responseStatus: opts.responseStatus ?? null,
  latencyMs: opts.latencyMs ?? null,
});

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
