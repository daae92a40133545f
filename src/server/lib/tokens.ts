import crypto from 'node:crypto';

/** A random URL-safe token for cookies and emailed links (256 bits). */
export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256, so a copy of the database cannot be replayed. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
