import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every email and SMS goes through the outbox (decision 054): only modules/notifications/ may
 * reach a transport (nodemailer, the platform mailer, the channels). Any other module queues
 * through lib/outbox.ts. Shown refusing planted direct sends, and the tree as it is passes.
 */

const MODULES = path.join(process.cwd(), 'src/server/modules');
const SENDER = 'notifications';

const FORBIDDEN: Array<{ what: string; pattern: RegExp }> = [
  { what: 'imports nodemailer', pattern: /from\s+['"]nodemailer['"]/ },
  { what: 'imports the platform mailer', pattern: /from\s+['"][./]*lib\/mailer['"]/ },
  { what: 'imports a channel of notifications', pattern: /from\s+['"][./]*notifications\/channels\// },
  { what: 'sends through the mailer', pattern: /\bmailer\s*\.\s*send\s*\(/ },
  { what: 'opens an SMTP transport', pattern: /\bcreateTransport\s*\(/ },
];

const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/** What a module's file does that only notifications may: empty when it sends nothing directly. */
export function directSends(relativePath: string, code: string): string[] {
  const moduleName = relativePath.split('/')[0];
  if (moduleName === SENDER) return [];
  const bare = withoutComments(code);
  return FORBIDDEN.filter((f) => f.pattern.test(bare)).map((f) => `${relativePath} ${f.what}`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('direct sends outside notifications/', () => {
  it.each([
    ['auth/planted.ts', "import nodemailer from 'nodemailer';\nexport const t = nodemailer;\n"],
    ['portal/planted.ts', "import { sendSms } from '../notifications/channels/sms';\nexport const s = sendSms;\n"],
    ['invitations/planted.ts', "import type { Mailer } from '../../lib/mailer';\nexport type M = Mailer;\n"],
    [
      'super-admin/planted.ts',
      'export async function tell(deps: { mailer: { send: (m: object) => Promise<void> } }) {\n  await deps.mailer.send({});\n}\n',
    ],
  ])('are refused in %s', (file, code) => {
    expect(directSends(file, code)).not.toEqual([]);
  });

  it('are allowed in notifications/ and in comments', () => {
    expect(directSends('notifications/worker.ts', "import nodemailer from 'nodemailer';\n")).toEqual([]);
    expect(directSends('auth/planted.ts', '// once: await mailer.send(mail)\n')).toEqual([]);
  });

  it('queueing through the outbox is what the other modules do', () => {
    const code = "import { queueMessage } from '../../lib/outbox';\nexport const q = queueMessage;\n";
    expect(directSends('auth/planted.ts', code)).toEqual([]);
  });

  it('are found nowhere in the tree as it is', () => {
    const found = sourceFiles(MODULES).flatMap((file) =>
      directSends(path.relative(MODULES, file).split(path.sep).join('/'), readFileSync(file, 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
