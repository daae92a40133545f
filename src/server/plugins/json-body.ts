import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * Request bodies are bounded before any work: a body over its route's limit is refused while it
 * arrives (413; only photo uploads and the recipients import allow more than
 * `DEFAULT_BODY_LIMIT_BYTES`), and a JSON body nested deeper than `MAX_JSON_DEPTH` is refused
 * after one linear scan, before JSON.parse and validation walk it. The product's deepest body is
 * a few levels; a 14 MB `[[[[...` once held the event loop for seconds.
 */

export const DEFAULT_BODY_LIMIT_BYTES = 256 * 1024;
export const MAX_JSON_DEPTH = 32;
export const TOO_DEEP_MESSAGE = 'Request body is nested too deeply';

export function boundedJsonBodies(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
      done(new AppError(400, TOO_DEEP_MESSAGE, 'body_too_deep'), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}

/**
 * Whether JSON text opens more than `max` objects or arrays inside each other. Strings are
 * skipped with indexOf (a photo's megabytes of base64 are one native search), so the scan costs
 * little more than the bytes' arrival. Malformed text is left for JSON.parse to refuse.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // To the closing quote: one not preceded by an odd run of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        for (let j = end - 1; text.charCodeAt(j) === 0x5c; j--) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return false;
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}
