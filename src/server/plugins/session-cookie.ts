import type { Config } from '../config';

/**
 * The one set of options both session cookies are written with (staff and recipient): not
 * readable by scripts, sent on top-level navigations from mail links (Lax), Secure in production.
 */
export function sessionCookieOptions(config: Config) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.env === 'production' };
}
