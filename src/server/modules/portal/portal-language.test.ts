import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_INVALID } from '../../../contract';
import { recipients } from '../../db/schema';
import { RECIPIENT_SESSION_COOKIE } from '../../plugins/recipient-session';
import { Client, joinAs, type TestApp } from '../../test/harness';
import { testWorkers } from '../../test/notification-workers';
import { createTestAppWithSmtp, type TestSmtp } from '../../test/smtp';

/*
 * A recipient's language (issue 44 §4, decision 066): where it comes from (their own choice, the
 * desk, the CSV import, SCIM's tag, the organization's default), the page's switch, and the
 * messages that follow it: the requested link and the arrival go out in it.
 */
let smtp: TestSmtp;
let t: TestApp;
beforeAll(async () => {
  ({ t, smtp } = await createTestAppWithSmtp());
});
const workers = testWorkers();

const unique = () => crypto.randomUUID().slice(0, 8);
let lastIp = 0;
const ip = () => `192.0.2.${(++lastIp % 250) + 1}`;

async function desk() {
  const admin = new Client(t);
  await admin.register();
  await admin.createOrganization(`Harbor View ${unique()}`);
  const person = async (firstName: string, extra: object = {}) => {
    const email = `${firstName.toLowerCase()}.${unique()}@example.com`;
    const res = await admin.post('/api/recipients', { firstName, lastName: 'Okafor', email, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return { ...res.json<{ id: string; language: string | null }>(), email };
  };
  return { admin, person };
}

/** A Subject header as written, its RFC 2047 encoded words (non-ASCII subjects) decoded. */
function subjectOf(mail: { subject: string; raw: string }) {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(mail.raw)?.[1] ?? mail.subject;
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .replace(/\r?\n[ \t]/g, '');
}

/** The requested link's email to `email`: asked for, sent by the worker, as it arrived. */
async function linkEmail(email: string) {
  const before = smtp.received.length;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/portal/links',
    remoteAddress: ip(),
    payload: { address: email },
  });
  expect(res.statusCode).toBe(202);
  await t.app.portalLinksSent();
  await workers.drain(t);
  const mail = smtp.received.slice(before).find((m) => m.to.includes(email) && /#token=/.test(m.text));
  if (!mail) throw new Error(`no link to ${email}`);
  return mail;
}

/** A browser signed in to the page of the recipient with this email. */
async function signedIn(email: string) {
  const token = /#token=([\w-]+)/.exec((await linkEmail(email)).text)![1]!;
  const remoteAddress = ip();
  const opened = await t.app.inject({ method: 'POST', url: '/api/portal/session', remoteAddress, payload: { token } });
  expect(opened.statusCode, opened.body).toBe(200);
  const cookie = opened.cookies.find((c) => c.name === RECIPIENT_SESSION_COOKIE)!;
  const headers = { cookie: `${cookie.name}=${cookie.value}` };
  return {
    me: async () => (await t.app.inject({ method: 'GET', url: '/api/portal/me', remoteAddress, headers })).json(),
    setLanguage: (language: unknown) =>
      t.app.inject({ method: 'PUT', url: '/api/portal/language', remoteAddress, headers, payload: { language } }),
  };
}

const languageOf = async (id: string) =>
  (await t.db.select({ language: recipients.language }).from(recipients).where(eq(recipients.id, id)))[0]!.language;

describe('the page’s language switch (PUT /api/portal/language)', () => {
  it('saves the language as the recipient’s: the page and the desk see it, and the next message is in it', async () => {
    const { admin, person } = await desk();
    const amara = await person('Amara');
    const page = await signedIn(amara.email);
    expect(await page.me()).toMatchObject({ recipient: { language: null }, organization: { defaultLanguage: 'en' } });
    const res = await page.setLanguage('es');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ recipient: { language: 'es' } });
    expect((await admin.get(`/api/recipients/${amara.id}`)).json()).toMatchObject({ language: 'es' });
    expect(subjectOf(await linkEmail(amara.email))).toMatch(/^Su enlace para ver su correo en Harbor View/);
  });

  it('refuses a language it does not have with 400 and the list, and changes nothing', async () => {
    const { person } = await desk();
    const amara = await person('Amara', { language: 'fr' });
    const page = await signedIn(amara.email);
    for (const bad of ['xx', 'es-MX', '', null, 42]) {
      const res = await page.setLanguage(bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(LANGUAGE_INVALID);
    }
    expect(await languageOf(amara.id)).toBe('fr');
  });

  it('is the signed-in recipient’s own: another recipient’s session sets only its own, and no session is a 401', async () => {
    const { person } = await desk();
    const amara = await person('Amara', { language: 'de' });
    const ben = await person('Ben');
    const bensPage = await signedIn(ben.email);
    expect((await bensPage.setLanguage('pt')).statusCode).toBe(200);
    expect(await languageOf(ben.id)).toBe('pt');
    expect(await languageOf(amara.id)).toBe('de');
    const anonymous = await t.app.inject({ method: 'PUT', url: '/api/portal/language', payload: { language: 'es' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('where the language comes from', () => {
  it('the recipient’s own, else SCIM’s tag as stored, else the organization’s default, else English', async () => {
    const { admin, person } = await desk();
    const own = await person('Own', { language: 'de' });
    const directory = await person('Directory');
    const plain = await person('Plain');
    // A SCIM tag stored before the language field existed (or one written without it).
    await t.db.update(recipients).set({ preferredLanguage: 'pt-BR' }).where(eq(recipients.id, directory.id));
    expect(subjectOf(await linkEmail(plain.email))).toBe(`Your link to your mail at ${await orgName(admin)}`);

    const settings = await admin.put(`/api/organization-settings/${admin.organizationId}`, { defaultLanguage: 'fr' });
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json()).toMatchObject({ defaultLanguage: 'fr' });
    expect(subjectOf(await linkEmail(own.email))).toMatch(/^Ihr Link zu Ihrer Post/);
    expect(subjectOf(await linkEmail(directory.email))).toMatch(/^Seu link para suas correspondências/);
    expect(subjectOf(await linkEmail(plain.email))).toMatch(/^Votre lien vers votre courrier/);
  });

  it('the organization’s default is an admin’s setting, checked like the others', async () => {
    const { admin } = await desk();
    const bad = await admin.put(`/api/organization-settings/${admin.organizationId}`, { defaultLanguage: 'klingon' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(LANGUAGE_INVALID);
    const { client: member } = await joinAs(t, admin.organizationId!);
    const refused = await member.put(`/api/organization-settings/${admin.organizationId}`, { defaultLanguage: 'es' });
    expect(refused.statusCode).toBe(403);
    // Another organization's settings: 404, as every row of another organization.
    const stranger = (await desk()).admin;
    expect(
      (await stranger.put(`/api/organization-settings/${admin.organizationId}`, { defaultLanguage: 'es' })).statusCode,
    ).toBe(404);
    expect((await admin.get(`/api/organization-settings/${admin.organizationId}`)).json()).toMatchObject({
      defaultLanguage: 'en',
    });
  });

  it('the desk sets it on create and edit, checked against the list', async () => {
    const { admin, person } = await desk();
    const amara = await person('Amara', { language: 'zh-Hans' });
    expect(amara.language).toBe('zh-Hans');
    const bad = await admin.put(`/api/recipients/${amara.id}`, { language: 'zh-TW' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(LANGUAGE_INVALID);
    expect(await languageOf(amara.id)).toBe('zh-Hans');
    const cleared = await admin.put(`/api/recipients/${amara.id}`, { language: null });
    expect(cleared.json()).toMatchObject({ language: null });
  });

  it('the CSV import’s language column: tags resolved, an unknown one is the row’s error', async () => {
    const { admin } = await desk();
    const csv = [
      'first name,last name,email,language',
      `Ana,Lopez,ana.${unique()}@example.com,es-MX`,
      `Li,Wei,li.${unique()}@example.com,zh-CN`,
      `Jo,Smith,jo.${unique()}@example.com,`,
      `Kor,Qa,kor.${unique()}@example.com,klingon`,
    ].join('\n');
    const preview = (await admin.post('/api/recipients/import/preview', { csv })).json<{
      rows: Array<{ errors: string[]; values: { language?: string | null } }>;
    }>();
    expect(preview.rows.map((r) => r.errors)).toEqual([[], [], [], [LANGUAGE_INVALID]]);
    const imported = await admin.post('/api/recipients/import', { csv });
    expect(imported.json()).toMatchObject({ created: 3, invalid: 1 });
    const list = (await admin.get('/api/recipients?limit=10')).json<
      Array<{ firstName: string; language: string | null }>
    >();
    expect(Object.fromEntries(list.map((r) => [r.firstName, r.language]))).toEqual({
      Ana: 'es',
      Li: 'zh-Hans',
      Jo: null,
    });
  });

  it('the arrival email and its subject follow the recipient’s language (fan-out)', async () => {
    const { admin, person } = await desk();
    const amara = await person('Amara', { language: 'es' });
    const before = smtp.received.length;
    const item = await admin.post('/api/mail-items', { type: 'letter', recipientId: amara.id, sender: 'Acme' });
    expect(item.statusCode, item.body).toBe(201);
    await workers.drain(t);
    const mail = smtp.received.slice(before).find((m) => m.to.includes(amara.email));
    expect(subjectOf(mail!)).toMatch(/^Su carta ha llegado a Harbor View/);
    // The pickup code first (decision 063), in Spanish. (The harness decodes quoted-printable
    // bytes one per character: read them again as the UTF-8 they are.)
    const text = Buffer.from(mail!.text, 'latin1').toString('utf8');
    expect(text).toMatch(/\nSu código de recogida: [A-Z0-9]{3}-[A-Z0-9]{3}\r?\nMuestre este código/);
    expect(text).toContain('Una carta de Acme ha llegado para usted y ya puede recogerla.');
    // Its unsubscribe page speaks the recipient's language too, whatever the browser prefers.
    const token = /\/api\/unsubscribe\/([0-9a-f-]{36}\.[\w-]+)/.exec(text)![1]!;
    const ask = await t.app.inject({
      method: 'GET',
      url: `/api/unsubscribe/${token}`,
      headers: { 'accept-language': 'fr-CA,fr;q=0.9' },
    });
    expect(ask.statusCode).toBe(200);
    expect(ask.body).toContain('<html lang="es">');
    expect(ask.body).toContain('¿Darse de baja de los avisos de correo?');
    // An invalid link: the browser's language.
    const invalid = await t.app.inject({
      method: 'GET',
      url: `/api/unsubscribe/${amara.id}.forged`,
      headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' },
    });
    expect(invalid.statusCode).toBe(404);
    expect(invalid.body).toContain('<html lang="de">');
    expect(invalid.body).toContain('Dieser Abmeldelink ist nicht gültig.');
  });
});

async function orgName(admin: Client) {
  return (await admin.get(`/api/organizations/${admin.organizationId}`)).json<{ name: string }>().name;
}
