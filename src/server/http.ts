import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorReply } from '../contract';

/** The Fastify instance as route modules see it: zod schemas type requests and replies. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The error replies a route documents, so /api/docs shows them. */
export const errorReplies = (...codes: Array<400 | 401 | 402 | 403 | 404 | 409 | 413 | 429>) =>
  Object.fromEntries(codes.map((c) => [c, ErrorReply])) as Record<number, typeof ErrorReply>;
