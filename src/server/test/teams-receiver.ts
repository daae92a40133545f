import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * A local stand-in for a Teams Workflows webhook (decision 065): it takes the POST a Teams
 * incoming webhook takes ({type: 'message', attachments: [{contentType:
 * 'application/vnd.microsoft.card.adaptive', content}]}), checks the card against the Adaptive
 * Card schema (adaptive-card.schema.json beside this file, a subset of the official 1.5 schema)
 * with ajv, and answers 400 with the schema's errors for an invalid one, as a flow that cannot
 * post a card does. A valid card gets 202 (what Workflows answers), unless the test scripts
 * another answer (a 5xx, a 410).
 */

const schema = JSON.parse(fs.readFileSync(new URL('./adaptive-card.schema.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateCard = ajv.compile(schema);

export const ADAPTIVE_CARD_CONTENT_TYPE = 'application/vnd.microsoft.card.adaptive';

/** The Adaptive Card schema's errors for `card`, empty when it is valid (also used by unit checks). */
export function cardErrors(card: unknown): string[] {
  if (validateCard(card)) return [];
  return (validateCard.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}

/** The message envelope's own problems, then its card's. */
export function messageErrors(body: unknown): string[] {
  const m = body as { type?: unknown; attachments?: Array<{ contentType?: unknown; content?: unknown }> };
  if (!m || typeof m !== 'object') return ['the body is not a JSON object'];
  if (m.type !== 'message') return ["type must be 'message'"];
  if (!Array.isArray(m.attachments) || m.attachments.length === 0) return ['attachments must hold a card'];
  return m.attachments.flatMap((a, i) =>
    a.contentType !== ADAPTIVE_CARD_CONTENT_TYPE
      ? [`attachments[${i}].contentType must be ${ADAPTIVE_CARD_CONTENT_TYPE}`]
      : cardErrors(a.content).map((e) => `attachments[${i}].content${e}`),
  );
}

export type TeamsPost = {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The first attachment's card, when the body parsed. */
  card: Record<string, unknown> | null;
  errors: string[];
};

export async function startTeamsReceiver(
  answer: (n: number, post: TeamsPost) => { status: number; body?: string } | undefined = () => undefined,
) {
  const posts: TeamsPost[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      let parsed: unknown;
      let errors: string[];
      try {
        parsed = JSON.parse(raw);
        errors = messageErrors(parsed);
      } catch {
        errors = ['the body is not JSON'];
      }
      const card =
        ((parsed as { attachments?: Array<{ content?: Record<string, unknown> }> } | undefined)?.attachments?.[0]
          ?.content as Record<string, unknown> | undefined) ?? null;
      const post: TeamsPost = { path: req.url ?? '/', headers: req.headers, body: raw, card, errors };
      posts.push(post);
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      if (errors.length) {
        // What a flow answers for a card it cannot post: 400 with its reasons.
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: errors.join('; ') } }));
        return;
      }
      const scripted = answer(posts.length, post);
      res.writeHead(scripted?.status ?? 202, { 'content-type': 'application/json' }).end(scripted?.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** A Workflows-like URL, query signature included (it must never show in replies or logs). */
    url: `http://127.0.0.1:${port}/workflows/abc123/triggers/manual/paths/invoke?api-version=1&sig=SECRETSIG`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
