import crypto from 'node:crypto';
import type { Config } from '../../config';
import { sessionCookieOptions } from '../../plugins/session-cookie';

/**
 * Binding a sign-in to the browser that started it (decisions 059, 062), the one way for both
 * protocols: the start puts the request's state (random 256 bits, stored only hashed with the
 * pending request) in an HttpOnly cookie of the starting browser; the provider's answer is taken
 * only when that cookie carries the same state. A sign-in started by someone else and finished in
 * this browser (login CSRF: the attacker's own account signed into the victim's browser) is
 * refused. What differs between the protocols is how the answer arrives, so the cookie's scope:
 *
 * - OIDC: the provider redirects the browser (a top-level GET), which carries a SameSite=Lax cookie.
 * - SAML: the provider's page POSTs to our ACS from its own site, which a Lax cookie does not ride
 *   on: that cookie is SameSite=None, so it must be Secure (browsers refuse a None cookie without
 *   it), and its path is the one organization's ACS, so nothing else ever receives it.
 */
export const SSO_STATE_COOKIE = 'pigeonhole.sso_state';
export const SAML_STATE_COOKIE = 'pigeonhole.saml_state';

/** How long a sign-in sent to the provider may take to come back: the pending request's life, and its cookie's. */
export const SIGN_IN_REQUEST_TTL_MS = 10 * 60_000;
const maxAge = Math.floor(SIGN_IN_REQUEST_TTL_MS / 1000);

/** The OIDC state cookie: the session cookies' rules (Lax, Secure in production), only /api/sso sees it. */
export function oidcStateCookie(config: Config) {
  return { ...sessionCookieOptions(config), path: '/api/sso', maxAge };
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The SAML state cookie, for the organization's ACS path only. SameSite=None; Secure wherever the
 * browser keeps a Secure cookie: in production (as the session cookies), on an https APP_URL, and
 * on loopback (http://localhost and 127.0.0.1 are secure contexts to Chromium and Firefox).
 * Otherwise (plain http on another host, development only) a None cookie without Secure would be
 * dropped, so it falls back to Lax: a sign-in then works only with a provider of the same site.
 */
export function samlStateCookie(config: Config, publicUrl: string, acsPath: string) {
  const url = new URL(publicUrl);
  const secure =
    sessionCookieOptions(config).secure || url.protocol === 'https:' || LOOPBACK.test(url.hostname.toLowerCase());
  return {
    path: acsPath,
    httpOnly: true,
    secure,
    sameSite: secure ? ('none' as const) : ('lax' as const),
    maxAge,
  };
}

/** Whether the answer's state is the one this browser's cookie holds (compared in constant time). */
export function startedInThisBrowser(browserState: string | undefined, state: string): boolean {
  if (!browserState) return false;
  const a = Buffer.from(browserState);
  const b = Buffer.from(state);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
