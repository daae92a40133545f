import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RosterRun, RosterSource } from '../../../contract';
import { recipients } from '../../db/schema';
import { createTestApp, signUpWithOrganization, type TestApp } from '../../test/harness';
import { fetchRoster } from './roster.fetch';

/**
 * SFTP against the machine's OpenSSH server on loopback (issue 43's "real parts"): a throwaway
 * sshd on a free port with its own host key, logging root in with a key generated here and
 * listed in a temporary authorized_keys, the file served by sshd's internal-sftp.
 */

let t: TestApp;
let dir: string;
let port: number;
let clientKey: string;
let sshd: ChildProcess;

async function freePort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: p } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return p;
}

async function listening(p: number, deadline = Date.now() + 10_000) {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(p, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error('sshd did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-sftp-'));
  for (const name of ['host_key', 'client_key']) {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, name)]);
  }
  fs.copyFileSync(path.join(dir, 'client_key.pub'), path.join(dir, 'authorized_keys'));
  clientKey = fs.readFileSync(path.join(dir, 'client_key'), 'utf8');
  port = await freePort();
  fs.writeFileSync(
    path.join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host_key')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'UsePAM no',
      'Subsystem sftp internal-sftp',
    ].join('\n'),
  );
  fs.mkdirSync('/run/sshd', { recursive: true });
  sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: 'ignore' });
  await listening(port);
  return () => {
    sshd.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  };
});

/** `ssh-keygen -lf`'s SHA-256 fingerprint of a public key file. */
const fingerprintOf = (publicKeyFile: string) =>
  execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', publicKeyFile], { encoding: 'utf8' }).split(' ')[1]!;
const serverFingerprint = () => fingerprintOf(path.join(dir, 'host_key.pub'));

/** A source reading `file` from the loopback sshd as root with the generated key. */
const sourceBody = (file: string) => ({
  kind: 'sftp',
  host: '127.0.0.1',
  port,
  path: file,
  username: 'root',
  sftpAuth: 'private_key',
  secret: clientKey,
  mapping: { externalId: 'id', firstName: 'first_name', lastName: 'last_name', unit: 'room' },
  schedule: 'hourly',
});

const csvOf = (rows: string[]) => ['id;first_name;last_name;room', ...rows].join('\n');

describe('a roster over SFTP', () => {
  it('signs in with a private key, reads the file, and a run adds the residents after approval', async () => {
    const file = path.join(dir, 'residents.csv');
    fs.writeFileSync(file, csvOf(['A1;Ines;Moreau;12', 'A2;Tom;Berg;14']));
    const { client: admin, org } = await signUpWithOrganization(t, 'SFTP Towers');
    const created = await admin.post('/api/roster/sources', sourceBody(file));
    expect(created.statusCode, created.body).toBe(201);
    const source = created.json<RosterSource>();
    expect(source).toMatchObject({ kind: 'sftp', hasSecret: true, username: 'root' });
    expect(created.body).not.toContain('PRIVATE KEY');

    const run = (await admin.post(`/api/roster/sources/${source.id}/run`)).json<RosterRun>();
    expect(run).toMatchObject({ status: 'awaiting_approval', counts: { added: 2 } });
    expect((await admin.post(`/api/roster/runs/${run.id}/approve`)).statusCode).toBe(200);
    const rows = await t.db
      .select()
      .from(recipients)
      .where(and(eq(recipients.organizationId, org.id), eq(recipients.managedBy, 'roster')));
    expect(rows.map((r) => [r.externalId, r.firstName, r.unit]).sort()).toEqual([
      ['A1', 'Ines', '12'],
      ['A2', 'Tom', '14'],
    ]);
    // The first connection's host key is kept: the fingerprint ssh-keygen prints for the server's key.
    const kept = (await admin.get('/api/roster/sources')).json<RosterSource[]>()[0]!;
    expect(kept.sftpHostKey).toBe(serverFingerprint());
  });

  it('refuses a server presenting another host key before sending the password or key, and reads nothing', async () => {
    const file = path.join(dir, 'pinned.csv');
    fs.writeFileSync(file, csvOf(['B1;Ada;Lind;3']));
    const { client: admin, org } = await signUpWithOrganization(t, 'Pinned Court');
    const body = sourceBody(file);
    const malformed = await admin.post('/api/roster/sources', { ...body, hostKey: 'MD5:aa:bb' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain('The host key fingerprint looks like SHA256');
    // The fingerprint of some other key: as if the address now led to another machine.
    const otherKey = path.join(dir, 'impostor_key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', otherKey]);
    const impostor = fingerprintOf(`${otherKey}.pub`);
    const created = await admin.post('/api/roster/sources', { ...body, hostKey: impostor });
    expect(created.statusCode, created.body).toBe(201);
    const source = created.json<RosterSource>();
    expect(source.sftpHostKey).toBe(impostor);

    const run = (await admin.post(`/api/roster/sources/${source.id}/run`)).json<RosterRun>();
    expect(run.status).toBe('failed');
    expect(run.errorText).toContain(`presented the host key ${serverFingerprint()}, not ${impostor}`);
    const rows = await t.db.select().from(recipients).where(eq(recipients.organizationId, org.id));
    expect(rows).toEqual([]);
    // The admin's fingerprint is not replaced by what the server showed.
    expect((await admin.get('/api/roster/sources')).json<RosterSource[]>()[0]!.sftpHostKey).toBe(impostor);

    // Cleared by the admin: the next run keeps the server's key again.
    const { secret: _secret, ...withoutSecret } = body;
    const cleared = await admin.put(`/api/roster/sources/${source.id}`, { ...withoutSecret, hostKey: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json<RosterSource>().sftpHostKey).toBeNull();
    const again = (await admin.post(`/api/roster/sources/${source.id}/run`)).json<RosterRun>();
    expect(again.status).toBe('awaiting_approval');
    expect((await admin.get('/api/roster/sources')).json<RosterSource[]>()[0]!.sftpHostKey).toBe(serverFingerprint());
  });

  it('reports a wrong key and a missing file as fetch failures', async () => {
    const other = path.join(dir, 'other_key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other]);
    const base = {
      kind: 'sftp' as const,
      host: '127.0.0.1',
      port,
      username: 'root',
      sftpAuth: 'private_key' as const,
      hostKey: null,
    };
    await expect(
      fetchRoster(
        { ...base, path: '/nowhere.csv', secret: fs.readFileSync(other, 'utf8') },
        { allowPrivateTargets: true },
      ),
    ).rejects.toThrow(/SFTP/);
    await expect(
      fetchRoster({ ...base, path: path.join(dir, 'absent.csv'), secret: clientKey }, { allowPrivateTargets: true }),
    ).rejects.toThrow(/SFTP/);
    await expect(
      fetchRoster({ ...base, path: path.join(dir, 'absent.csv'), secret: clientKey }, { allowPrivateTargets: false }),
    ).rejects.toThrow(/not a public address/);
  });
});
