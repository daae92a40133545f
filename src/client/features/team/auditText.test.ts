import type { AuditEntry } from '@contract';
import { describe, expect, it } from 'vitest';
import { auditSentence } from './auditText';

const ana = { id: '00000000-0000-4000-8000-000000000001', firstName: 'Ana', lastName: 'Admin', email: 'ana@x.com' };

function entry(changes: Partial<AuditEntry>): AuditEntry {
  return {
    id: '00000000-0000-4000-8000-000000000009',
    action: 'invitation.sent',
    actor: ana,
    targetType: null,
    targetId: null,
    targetLabel: null,
    before: null,
    after: null,
    createdAt: '2026-11-21T12:00:00.000Z',
    ...changes,
  };
}

describe('auditSentence', () => {
  it('words each action in plain language', () => {
    expect(auditSentence(entry({ targetLabel: 'bob@x.com', after: { role: 'member' } }))).toBe(
      'Ana Admin invited bob@x.com as member',
    );
    expect(
      auditSentence(
        entry({
          action: 'member.role_changed',
          targetLabel: 'Bob',
          before: { role: 'member' },
          after: { role: 'admin' },
        }),
      ),
    ).toBe("Ana Admin changed Bob's role from member to admin");
    const roleChange = entry({
      action: 'member.role_changed',
      targetType: 'member',
      targetId: 'u-bob',
      targetLabel: 'bob@x.com',
      before: { role: 'admin' },
      after: { role: 'member' },
    });
    expect(auditSentence(roleChange, (id) => (id === 'u-bob' ? 'Bob Baker' : undefined))).toBe(
      "Ana Admin changed Bob Baker's role from admin to member",
    );
    expect(auditSentence(roleChange, () => undefined)).toBe("Ana Admin changed bob@x.com's role from admin to member");
    expect(auditSentence(entry({ action: 'organization.updated', after: { name: 'New', address: 'Main St' } }))).toBe(
      'Ana Admin updated Organization: name, address',
    );
    expect(auditSentence(entry({ action: 'settings.updated', after: { reminderAfterDays: 3 } }))).toBe(
      'Ana Admin updated Settings: reminder days',
    );
    expect(auditSentence(entry({ action: 'member.removed', targetLabel: 'Bob', actor: null }))).toBe(
      'Someone removed Bob from the organization',
    );
    expect(auditSentence(entry({ action: 'invitation.revoked', targetLabel: 'c@x.com' }))).toBe(
      'Ana Admin revoked the invitation to c@x.com',
    );
  });

  it('words integration and API key entries, never guessing at secrets', () => {
    const integration = { targetType: 'integration', targetId: 'i-1', targetLabel: 'Front desk email' };
    expect(
      auditSentence(entry({ ...integration, action: 'integration.created', after: { type: 'email', isActive: true } })),
    ).toBe('Ana Admin added the email integration Front desk email');
    expect(
      auditSentence(
        entry({
          ...integration,
          action: 'integration.updated',
          before: { name: 'Desk', smtpHost: 'a', password: '(changed)' },
          after: { name: 'Front desk email', smtpHost: 'b', password: '(changed)' },
        }),
      ),
    ).toBe('Ana Admin updated the integration Front desk email: name, SMTP host, password');
    expect(
      auditSentence(
        entry({
          ...integration,
          action: 'integration.updated',
          before: { isActive: true },
          after: { isActive: false },
        }),
      ),
    ).toBe('Ana Admin switched off the integration Front desk email');
    expect(
      auditSentence(
        entry({
          ...integration,
          action: 'integration.updated',
          before: { isActive: false },
          after: { isActive: true },
        }),
      ),
    ).toBe('Ana Admin switched on the integration Front desk email');
    expect(
      auditSentence(entry({ ...integration, action: 'integration.deleted', before: { type: 'sms' }, actor: null })),
    ).toBe('Someone deleted the SMS integration Front desk email');
    expect(
      auditSentence(entry({ ...integration, targetLabel: 'Building', action: 'integration.secret_rotated' })),
    ).toBe('Ana Admin replaced the signing secret of the integration Building');
    const key = { targetType: 'api_key', targetId: 'k-1', targetLabel: 'Reception kiosk' };
    expect(
      auditSentence(
        entry({ ...key, action: 'api_key.created', after: { name: 'Reception kiosk', prefix: 'pk_ab12cd34' } }),
      ),
    ).toBe('Ana Admin created the API key Reception kiosk (pk_ab12cd34)');
    expect(
      auditSentence(
        entry({ ...key, action: 'api_key.revoked', before: { name: 'Reception kiosk', prefix: 'pk_ab12cd34' } }),
      ),
    ).toBe('Ana Admin revoked the API key Reception kiosk (pk_ab12cd34)');
  });

  it('words mailroom and storage location entries', () => {
    const room = { targetType: 'mailroom', targetId: 'm-1', targetLabel: 'Main Lobby' };
    expect(auditSentence(entry({ ...room, action: 'mailroom.created', after: { name: 'Main Lobby' } }))).toBe(
      'Ana Admin added the mailroom Main Lobby',
    );
    expect(
      auditSentence(
        entry({
          ...room,
          action: 'mailroom.updated',
          before: { name: 'Lobby', description: null },
          after: { name: 'Main Lobby', description: 'Ground floor' },
        }),
      ),
    ).toBe('Ana Admin updated the mailroom Main Lobby: name, description');
    expect(
      auditSentence(
        entry({ ...room, action: 'mailroom.updated', before: { isActive: true }, after: { isActive: false } }),
      ),
    ).toBe('Ana Admin switched off the mailroom Main Lobby');
    expect(auditSentence(entry({ ...room, action: 'mailroom.deleted', before: { name: 'Main Lobby' } }))).toBe(
      'Ana Admin deleted the mailroom Main Lobby',
    );
    const shelf = { targetType: 'location', targetId: 'l-1', targetLabel: 'Shelf A' };
    expect(
      auditSentence(
        entry({ ...shelf, action: 'location.created', after: { name: 'Shelf A', mailroom: 'Main Lobby' } }),
      ),
    ).toBe('Ana Admin added the storage location Shelf A to Main Lobby');
    expect(
      auditSentence(
        entry({
          ...shelf,
          action: 'location.updated',
          before: { mailroom: 'Main Lobby', capacity: 20 },
          after: { mailroom: 'Annex', capacity: 30 },
        }),
      ),
    ).toBe('Ana Admin updated the storage location Shelf A: mailroom, capacity');
    expect(auditSentence(entry({ ...shelf, action: 'location.deleted', before: { name: 'Shelf A' } }))).toBe(
      'Ana Admin deleted the storage location Shelf A',
    );
  });
});
