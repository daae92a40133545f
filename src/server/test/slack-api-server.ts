import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message chat.postMessage received: where to, its fallback text and its blocks. */
export type PostedSlackMessage = { token: string; channel: string; text: string; blocks: unknown[] };

export type SlackWorkspace = {
  /** The bot token the workspace accepts (Authorization: Bearer …). */
  token: string;
  teamId: string;
  teamName: string;
  /** Users by email (lower case) → user id; an email not here answers users_not_found. */
  users: Map<string, string>;
  channels: Array<{ id: string; name: string; is_private?: boolean; is_member?: boolean }>;
};

/**
 * A local server speaking Slack's Web API as @slack/web-api calls it (decision 064): POST
 * /api/<method> with a form (or JSON) body, the token in `Authorization: Bearer`, answers
 * `{ ok, … }` with HTTP 200. auth.test, users.lookupByEmail, chat.postMessage and
 * conversations.list; a token no workspace holds answers `invalid_auth`, a revoked one
 * `token_revoked`. `rateLimit(n, retryAfter)` answers the next n calls with HTTP 429 and
 * Retry-After; `rateLimitShare(p)` answers a share of all calls so (the benchmark's 1 %).
 */
export async function startSlackApiServer() {
  const workspaces = new Map<string, SlackWorkspace>();
  const revoked = new Set<string>();
  const posted: PostedSlackMessage[] = [];
  const calls: Array<{ method: string; token: string | null }> = [];
  let limitNext = 0;
  let retryAfter = 1;
  let limitShare = 0;
  let limited = 0;

  function parse(req: http.IncomingMessage, raw: string): Record<string, unknown> {
    const type = String(req.headers['content-type'] ?? '');
    if (type.includes('application/json')) return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(raw)) out[k] = v;
    return out;
  }

  function answer(method: string, token: string | null, body: Record<string, unknown>): unknown {
    if (!token) return { ok: false, error: 'not_authed' };
    if (revoked.has(token)) return { ok: false, error: 'token_revoked' };
    const ws = workspaces.get(token);
    if (!ws) return { ok: false, error: 'invalid_auth' };
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: `https://${ws.teamId}.slack.com/`,
          team: ws.teamName,
          team_id: ws.teamId,
          user: 'pigeonhole',
          user_id: 'UBOT0001',
          bot_id: 'BBOT0001',
        };
      case 'users.lookupByEmail': {
        const id = ws.users.get(String(body.email ?? '').toLowerCase());
        if (!id) return { ok: false, error: 'users_not_found' };
        return { ok: true, user: { id, team_id: ws.teamId, name: id.toLowerCase() } };
      }
      case 'chat.postMessage': {
        const channel = String(body.channel ?? '');
        if (!channel) return { ok: false, error: 'channel_not_found' };
        // The SDK sends arrays as JSON inside the form.
        const blocks =
          typeof body.blocks === 'string' ? (JSON.parse(body.blocks) as unknown[]) : ((body.blocks as unknown[]) ?? []);
        posted.push({ token, channel, text: String(body.text ?? ''), blocks });
        return {
          ok: true,
          channel,
          ts: `${Math.floor(Date.now() / 1000)}.${String(posted.length).padStart(6, '0')}`,
          message: { text: body.text },
        };
      }
      case 'conversations.list':
        return { ok: true, channels: ws.channels, response_metadata: { next_cursor: '' } };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const method = (req.url ?? '').split('?')[0]!.replace(/^\/api\//, '');
      const auth = String(req.headers.authorization ?? '');
      const token = auth.startsWith('Bearer ') ? auth.slice(7) : null;
      calls.push({ method, token });
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      if (limitNext > 0 || (limitShare > 0 && Math.random() < limitShare)) {
        if (limitNext > 0) limitNext -= 1;
        limited += 1;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfter) });
        res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = parse(req, raw);
      } catch {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: false, error: 'invalid_json' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(answer(method, token, body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;

  let seq = 0;
  return {
    /** SLACK_API_URL for the app. */
    url,
    posted,
    calls,
    /** How many calls were answered 429. */
    get limited() {
      return limited;
    },
    /** A workspace with its own bot token. */
    addWorkspace(
      init: Partial<Omit<SlackWorkspace, 'users'>> & { users?: Record<string, string> } = {},
    ): SlackWorkspace {
      seq += 1;
      const ws: SlackWorkspace = {
        token: init.token ?? `xoxb-test-${seq}-${Math.random().toString(36).slice(2)}`,
        teamId: init.teamId ?? `T${String(seq).padStart(8, '0')}`,
        teamName: init.teamName ?? `Workspace ${seq}`,
        users: new Map(Object.entries(init.users ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
        channels: init.channels ?? [
          { id: 'C0FRONTDSK', name: 'front-desk', is_private: false, is_member: true },
          { id: 'C0GENERAL1', name: 'general', is_private: false, is_member: false },
        ],
      };
      workspaces.set(ws.token, ws);
      return ws;
    },
    /** The token stops working as Slack's does when an app is uninstalled. */
    revoke(token: string) {
      revoked.add(token);
    },
    /** The next `n` calls answer HTTP 429 with Retry-After: `seconds`. */
    rateLimit(n: number, seconds = 1) {
      limitNext = n;
      retryAfter = seconds;
    },
    /** A share (0..1) of every call answers 429 with Retry-After: `seconds`. */
    rateLimitShare(share: number, seconds = 1) {
      limitShare = share;
      retryAfter = seconds;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type SlackApiServer = Awaited<ReturnType<typeof startSlackApiServer>>;
