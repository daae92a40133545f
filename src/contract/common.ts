import { z } from 'zod';

/** Every failure the API answers: `{message, code?, errors?}` with a 4xx/5xx status. */
export const ErrorReply = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorReply = z.infer<typeof ErrorReply>;

/** The server refuses text carrying U+0000 anywhere in a request (PostgreSQL text cannot hold it). */
export const NUL_CHARACTER_MESSAGE = 'Text must not contain the NUL character';

export const MessageReply = z.object({ message: z.string() });
export type MessageReply = z.infer<typeof MessageReply>;

export const Id = z.uuid({ message: 'Invalid id' });
export const IdParams = z.object({ id: Id });

/** Times travel as UTC ISO 8601 strings. */
export const Timestamp = z.string();

/** An optional text field: blank becomes null, over-long is refused with the given message. */
export function optionalText(max: number, tooLong: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim() : v),
    z.string().max(max, tooLong).nullish(),
  );
}

/** An optional email: blank or null becomes null, otherwise it must be valid. */
export function optionalEmail(invalid: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.email(invalid).max(255, 'Email must be less than 255 characters').nullish(),
  );
}

/** A date (YYYY-MM-DD) or an ISO 8601 date-time with an offset, as query parameters carry them. */
const ISO_DATE_OR_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;
export const isoDateParam = (message: string) =>
  z.string().refine((v) => ISO_DATE_OR_DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)), message);
