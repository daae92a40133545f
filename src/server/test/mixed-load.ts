import pg from 'pg';

/**
 * The front desk's mixed load over real HTTP, for the fault test and `npm run faults`
 * (decision 039): intake (each item with a tracking number of its own, so every write answered
 * 2xx can be counted in the database afterwards), desk reads (Pending Pickups, the dashboard) and
 * status changes (pending -> notified) of items it logged.
 */
export type Desk = { baseUrl: string; cookie: string; organizationId: string; recipientId: string };

export type Outcome = {
  /** ms since the load started */
  at: number;
  kind: 'intake' | 'read' | 'dashboard' | 'status';
  /** HTTP status, or 0 when no answer came (connection refused or reset, timeout) */
  status: number;
  /** A 503 that carried Retry-After and said the database was away. */
  retryAfter?: boolean;
};

export type LoadResult = {
  outcomes: Outcome[];
  /** Tracking numbers of the intakes answered 201. */
  written: string[];
  /** Tracking numbers of every intake sent, answered or not. */
  sent: string[];
  /** Status changes answered 2xx (item ids). */
  statusChanged: string[];
  startedAt: number;
};

/** Signs up a desk through `baseUrl` (register, organization, one recipient). */
export async function signUpDesk(baseUrl: string, tag: string): Promise<Desk> {
  const account = { username: `${tag}_desk`, email: `${tag}_desk@example.com`, password: 'correct-horse-9' };
  const register = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (register.status !== 201) throw new Error(`register: ${register.status} ${await register.text()}`);
  const cookie = register.headers
    .getSetCookie()
    .find((c) => c.startsWith('pigeonhole.sid='))!
    .split(';')[0]!;
  const post = async (path: string, body: unknown, organizationId?: string) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie,
        ...(organizationId ? { 'x-organization-id': organizationId } : {}),
      },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const org = await post('/api/organizations', { name: `Faults ${tag}` });
  const recipient = await post('/api/recipients', { firstName: 'Rosa', lastName: 'Parks' }, org.id);
  return { baseUrl, cookie, organizationId: org.id, recipientId: recipient.id };
}

/**
 * Runs `concurrency` loops until `stop()` answers true. Each loop cycles intake, Pending Pickups,
 * a status change, the dashboard. After a 503 or no answer a loop waits `backoffMs`, as a client
 * honouring Retry-After would (shorter, to see the recovery sooner); requests never retry.
 */
export async function runMixedLoad(
  desk: Desk,
  {
    concurrency,
    stop,
    tag,
    backoffMs = 200,
  }: { concurrency: number; stop: () => boolean; tag: string; backoffMs?: number },
): Promise<LoadResult> {
  const result: LoadResult = { outcomes: [], written: [], sent: [], statusChanged: [], startedAt: Date.now() };
  const logged: string[] = [];
  const headers = { cookie: desk.cookie, 'x-organization-id': desk.organizationId };

  async function call(kind: Outcome['kind'], method: string, path: string, body?: unknown) {
    const at = Date.now() - result.startedAt;
    try {
      const res = await fetch(`${desk.baseUrl}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      const outcome: Outcome = { at, kind, status: res.status };
      if (res.status === 503) {
        outcome.retryAfter =
          Number(res.headers.get('retry-after')) > 0 && text.includes('"code":"database_unavailable"');
      }
      result.outcomes.push(outcome);
      return { status: res.status, text };
    } catch {
      result.outcomes.push({ at, kind, status: 0 });
      return { status: 0, text: '' };
    }
  }

  async function loop(worker: number) {
    for (let n = 0; !stop(); n += 1) {
      let status: number;
      switch (n % 4) {
        case 0: {
          const tracking = `${tag}-${worker}-${n}`;
          result.sent.push(tracking);
          const res = await call('intake', 'POST', '/api/mail-items', {
            type: 'package',
            recipientId: desk.recipientId,
            trackingNumber: tracking,
          });
          status = res.status;
          if (status === 201) {
            result.written.push(tracking);
            logged.push((JSON.parse(res.text) as { id: string }).id);
          }
          break;
        }
        case 1:
          status = (await call('read', 'GET', '/api/mail-items?status=pending,notified')).status;
          break;
        case 2: {
          const id = logged.shift();
          if (!id) continue;
          status = (await call('status', 'PUT', `/api/mail-items/${id}`, { status: 'notified' })).status;
          if (status >= 200 && status < 300) result.statusChanged.push(id);
          break;
        }
        default:
          status = (await call('dashboard', 'GET', '/api/dashboard/stats')).status;
      }
      if (status === 503 || status === 0) await new Promise((r) => setTimeout(r, backoffMs));
    }
  }

  await Promise.all(Array.from({ length: concurrency }, (_, i) => loop(i)));
  return result;
}

/** What the database holds of the load's intakes, read as its owner (no row-level security). */
export async function countWrites(databaseUrl: string, result: LoadResult, tag: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ tracking_number: string; n: number }>(
      `select tracking_number, count(*)::int as n from mail_items where tracking_number like $1 group by 1`,
      [`${tag}-%`],
    );
    const stored = new Map(rows.map((r) => [r.tracking_number, r.n]));
    const { rows: history } = await client.query<{ n: number }>(
      `select count(*)::int as n from (
         select h.mail_item_id from mail_item_history h join mail_items m on m.id = h.mail_item_id
         where m.tracking_number like $1 and h.new_status = 'notified'
         group by 1 having count(*) > 1) twice`,
      [`${tag}-%`],
    );
    return {
      /** Answered 201 but not in the database. */
      lost: result.written.filter((t) => !stored.has(t)),
      /** In the database more than once. */
      duplicated: [...stored].filter(([, n]) => n > 1).map(([t]) => t),
      /** Sent, not answered 201, yet stored: committed before the connection was cut (allowed, once). */
      appliedUnanswered: result.sent.filter((t) => stored.has(t) && !result.written.includes(t)).length,
      /** Items whose status change to notified was recorded more than once. */
      statusTwice: history[0]!.n,
    };
  } finally {
    await client.end();
  }
}

/** Requests, 2xx, 503 (with and without Retry-After), other answers and no answers. */
export function summarize(outcomes: Outcome[]) {
  const count = (p: (o: Outcome) => boolean) => outcomes.filter(p).length;
  const other = new Map<number, number>();
  for (const o of outcomes) {
    if ((o.status >= 200 && o.status < 300) || o.status === 503 || o.status === 0) continue;
    other.set(o.status, (other.get(o.status) ?? 0) + 1);
  }
  return {
    requests: outcomes.length,
    ok: count((o) => o.status >= 200 && o.status < 300),
    unavailable: count((o) => o.status === 503),
    unavailableWithoutRetryAfter: count((o) => o.status === 503 && !o.retryAfter),
    noAnswer: count((o) => o.status === 0),
    other: Object.fromEntries(other),
  };
}
