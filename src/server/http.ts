import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorReply, TOTAL_COUNT_HEADER } from '../contract';

/** The Fastify instance as route modules see it: zod schemas type requests and replies. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The error replies a route documents, so /api/docs shows them. */
export const errorReplies = (...codes: Array<400 | 401 | 402 | 403 | 404 | 409 | 413 | 422 | 429 | 502>) =>
  Object.fromEntries(codes.map((c) => [c, ErrorReply])) as Record<number, typeof ErrorReply>;

/**
 * A page of a list as its finished reply: the JSON encoded to bytes once, when the page is built
 * (and cached), then sent as it is however often it is asked for; the total goes in a header.
 */
export type ListPage = { body: Buffer; total: number };

/** A page whose JSON was built already (by PostgreSQL), as its reply. */
export const jsonListPage = (json: string, total: number): ListPage => ({ body: Buffer.from(json), total });

export function sendListPage(reply: FastifyReply, page: ListPage) {
  return reply
    .header(TOTAL_COUNT_HEADER, String(page.total))
    .type('application/json; charset=utf-8')
    .send(page.body as never);
}

/**
 * A page of a list built in Node (`{items, total}`): the items go through the route's reply
 * schema like any reply; the total goes in a header.
 */
export function sendItemsPage(reply: FastifyReply, page: { items: unknown[]; total: number }) {
  return reply.header(TOTAL_COUNT_HEADER, String(page.total)).send(page.items);
}
