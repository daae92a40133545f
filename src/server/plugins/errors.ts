import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors';
import { isDatabaseUnavailable } from '../lib/pg-errors';

/**
 * Seconds a client is told to wait when the database is away. A PostgreSQL restart takes a few
 * seconds; the desk's requests are retried by the person (or a script honouring Retry-After).
 */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Every failure leaves as JSON `{message, code?, errors?}`. Validation errors carry the
 * contract's messages (the first one as `message`); the database being away answers 503 with
 * Retry-After; unexpected errors are logged and answer a bare 500 without internals.
 */
export function registerErrorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const retry = (error as AppError & { retryAfterSeconds?: number }).retryAfterSeconds;
      if (retry) reply.header('Retry-After', String(retry));
      return reply.status(error.statusCode).send({
        message: error.message,
        ...(error.code ? { code: error.code } : {}),
        ...(error.errors ? { errors: error.errors } : {}),
        // What a conflict is with (an edit from an older revision: the item as it is now).
        ...('current' in error ? { current: error.current } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'Invalid value',
      }));
      return reply
        .status(400)
        .send({ message: errors[0]?.message ?? 'Invalid request', code: 'validation_error', errors });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) {
      const message = request.routeOptions.config.bodyTooLargeMessage ?? 'Request body is too large';
      return reply.status(413).send({ message, code: 'body_too_large' });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error instanceof SyntaxError)) {
      return reply.status(400).send({ message: 'Request body is not valid JSON', code: 'invalid_json' });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: error.message, code: error.code?.toLowerCase() });
    }
    // The database restarting or unreachable: not a bug, and retrying later will work. Every
    // instance shares the database, so nginx does not retry another (it retries no 503).
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ message: 'The database is unavailable for a moment. Please try again.', code: 'database_unavailable' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send({ message: 'Something went wrong on our side. Please try again.', code: 'internal_error' });
  });
}
