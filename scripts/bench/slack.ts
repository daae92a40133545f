/**
 * Slack benchmark (issue 44, decision 064): N queued Slack DMs drained by the server's own
 * notification worker through the official @slack/web-api, against the local server that speaks
 * Slack's Web API (src/server/test/slack-api-server.ts), with 1 % of all calls answered HTTP 429
 * and `Retry-After: 1`. Every message is two calls (users.lookupByEmail, then chat.postMessage;
 * the lookup is cached per recipient, so a retried message makes one). Reports messages per
 * second, how many calls were rate-limited, and proves that none was lost and none sent twice:
 * every job row is 'sent' and the server received exactly one message per row.
 *
 *   npx tsx scripts/bench/slack.ts [count]
 *
 * Loopback only, in a fresh temporary data folder (or, with DATABASE_URL, a fresh database)
 * removed at the end, whatever happens.
 */
import pg from 'pg';
import { startSlackApiServer } from '../../src/server/test/slack-api-server';
import { waitUntilDrained } from './counting-smtp';
import {
  accountHeaders,
  log,
  makeDataDir,
  onCleanup,
  printTable,
  provisionDatabase,
  runBenchmark,
  signUp,
  startBenchServer,
} from './harness';

const COUNT = Number(process.argv[2] ?? 5_000);
const RATE_LIMITED_SHARE = 0.01;
const TIMEOUT_MS = 300_000;

async function main(): Promise<number> {
  const slack = await startSlackApiServer();
  onCleanup(slack.close);
  const users: Record<string, string> = {};
  for (let g = 1; g <= COUNT; g++) users[`r${g}@bench.test`] = `U${String(g).padStart(9, '0')}`;
  const workspace = slack.addWorkspace({ teamName: 'Bench Workspace', users });

  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  const server = await startBenchServer(dataDir, database, {
    SLACK_API_URL: slack.url,
    NOTIFICATIONS_WORKER: 'true',
  });
  const account = await signUp(server.url);

  // Connected as an admin does it: the token checked with auth.test on the local server.
  const res = await fetch(`${server.url}/api/integrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...accountHeaders(account) },
    body: JSON.stringify({ name: 'Slack', type: 'slack', config: { slackSettings: { botToken: workspace.token } } }),
  });
  if (res.status !== 201) throw new Error(`connecting Slack answered ${res.status}: ${await res.text()}`);
  const integrationId = ((await res.json()) as { id: string }).id;

  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  onCleanup(() => pool.end());
  const count = async () =>
    (
      await pool.query<{ status: string; n: number }>(
        `select status, count(*)::int as n from notification_jobs where channel = 'slack' group by status`,
      )
    ).rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: r.n }), {});

  const text = [
    'Your pickup code: K7M-4PX',
    'Show this code at the desk to collect.',
    '',
    'Bench Mailroom',
    '',
    'Hello Amara,',
    '',
    'A package from Acme has arrived for you and is ready for pickup.',
  ].join('\n');
  slack.rateLimitShare(RATE_LIMITED_SHARE, 1);
  log(`queueing ${COUNT} Slack messages in one statement (${RATE_LIMITED_SHARE * 100} % of calls answered 429) ...`);
  const started = performance.now();
  await pool.query(
    `insert into notification_jobs (organization_id, integration_id, channel, event, destination, payload, dedupe_key)
     select $1, $2, 'slack', 'mail_item.created', 'r' || g || '@bench.test',
            jsonb_build_object('kind', 'arrival', 'subject', 'Your package has arrived (' || g || ')',
                               'text', $3::text, 'pickupCode', 'K7M-4PX', 'portalLink', false),
            'bench:slack:' || g
     from generate_series(1, $4::int) g`,
    [account.organizationId, integrationId, text, COUNT],
  );
  let counts = await count();
  await waitUntilDrained(
    async () => {
      counts = await count();
      return (counts.sent ?? 0) + (counts.failed ?? 0) + (counts.skipped ?? 0);
    },
    COUNT,
    Date.now() + TIMEOUT_MS - 30_000,
    () => JSON.stringify(counts),
  );
  const drainedMs = performance.now() - started;

  const subjects = new Map<string, number>();
  for (const m of slack.posted) subjects.set(m.text, (subjects.get(m.text) ?? 0) + 1);
  const duplicates = [...subjects.values()].filter((n) => n > 1).length;
  const rate = (COUNT / drainedMs) * 1000;
  console.log('');
  printTable(
    ['measure', 'value'],
    [
      ['messages queued', String(COUNT)],
      ['drained in', `${(drainedMs / 1000).toFixed(2)} s`],
      ['messages / second', rate.toFixed(0)],
      ['Web API calls', String(slack.calls.length - 1)],
      ['calls answered 429 (Retry-After: 1 s)', String(slack.limited)],
      ['rows sent', String(counts.sent ?? 0)],
      ['rows failed', String(counts.failed ?? 0)],
      ['messages received by the Slack server', String(slack.posted.length)],
      ['messages received twice or more', String(duplicates)],
    ],
  );
  const ok = (counts.sent ?? 0) === COUNT && slack.posted.length === COUNT && duplicates === 0;
  console.log(`\n  ${ok ? 'PASS' : 'FAIL'}: ${ok ? 'none lost, none sent twice' : 'see the table'}`);
  return ok ? 0 : 1;
}

runBenchmark(main, TIMEOUT_MS);
