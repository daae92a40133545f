/**
 * Errors a service throws on purpose. The error plugin turns them into `{message, code?}` JSON
 * with their status; anything else becomes a logged 500 without internals.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    /** Per-field or per-row details, sent as the reply's `errors`. */
    readonly errors?: Array<{ path: string; message: string }>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code?: string) => new AppError(400, message, code);
export const unauthorized = (message = 'Not authenticated') => new AppError(401, message, 'unauthenticated');
export const forbidden = (message: string, code = 'forbidden') => new AppError(403, message, code);
export const notFound = (message = 'Not found') => new AppError(404, message, 'not_found');
export const conflict = (message: string, code = 'conflict') => new AppError(409, message, code);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  Object.assign(new AppError(429, message, 'rate_limited'), { retryAfterSeconds });
