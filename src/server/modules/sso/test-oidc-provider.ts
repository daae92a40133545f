import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider on loopback for the tests and the benchmark: panva's certified
 * `oidc-provider`, signing ID tokens with its own keys. Its login page is replaced by an
 * interaction that signs in whoever the test named with `signInAs` (no form to fill), and grants
 * the requested scopes at once (no consent screen).
 */

export type TestPerson = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  groups?: string[];
};

export type TestClient = { client_id: string; client_secret: string; redirect_uris: string[] };

export async function startTestOidcProvider(clients: TestClient[]) {
  const people = new Map<string, TestPerson>();
  let next: TestPerson | undefined;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({ ...c, grant_types: ['authorization_code'], response_types: ['code'] })),
    cookies: { keys: ['test-cookie-key-0123456789'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      // Providers send group membership under many names; here `groups` comes with the profile.
      profile: ['given_name', 'family_name', 'groups'],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const person = people.get(id);
      return person ? { accountId: id, claims: () => ({ ...person }) } : undefined;
    },
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  // A warning per request about plain http is expected on loopback.
  provider.on('server_error', () => undefined);
  const handle = provider.callback();

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
      void (async () => {
        try {
          await provider.interactionDetails(req, res);
          const person = next;
          if (!person) {
            await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'nobody' });
            return;
          }
          people.set(person.sub, person);
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: person.sub } },
            { mergeWithLastSubmission: false },
          );
        } catch (err) {
          res.statusCode = 500;
          res.end(String(err));
        }
      })();
      return;
    }
    void handle(req, res);
  });

  return {
    issuer,
    provider,
    /** Who the next sign-in at the provider is (undefined: the provider refuses it). */
    signInAs(person: TestPerson | undefined) {
      next = person;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's cookies, as few as the provider's pages need (names only; paths ignored). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(setCookies: string[]) {
    for (const c of setCookies) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Follows the provider's redirects (authorization, interaction, resume) as a browser would, until
 * one leaves for `stopAt` (our callback): that URL is returned, not fetched.
 */
export async function followProvider(start: string, stopAt: string, jar = new CookieJar()): Promise<string> {
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(stopAt)) return url;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(res.headers.getSetCookie());
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider did not redirect from ${url}: ${res.status} ${await res.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects at the provider');
}
