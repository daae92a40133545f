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
});
