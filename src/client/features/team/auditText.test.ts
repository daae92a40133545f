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
    for (const [isActive, word] of [
      [false, 'off'],
      [true, 'on'],
    ] as const) {
      const switched = entry({
        ...integration,
        action: 'integration.updated',
        before: { isActive: !isActive },
        after: { isActive },
      });
      expect(auditSentence(switched)).toBe(`Ana Admin switched ${word} the integration Front desk email`);
    }
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
  it('words billing changes, failed payments and refusals', () => {
    const billing = { targetType: 'billing', targetId: 'o-1', targetLabel: 'Harbor View' };
    expect(
      auditSentence(
        entry({
          ...billing,
          action: 'billing.plan_changed',
          before: { planType: 'trial', subscriptionStatus: 'trial', maxPackagesPerMonth: 500 },
          after: { planType: 'professional', subscriptionStatus: 'active', maxPackagesPerMonth: -1, provider: 'demo' },
        }),
      ),
    ).toBe('Ana Admin changed the plan from Trial to Professional, paid with the demo provider');
    expect(
      auditSentence(
        entry({
          ...billing,
          action: 'billing.plan_changed',
          before: { planType: 'professional', maxUsers: 5 },
          after: { planType: 'enterprise', maxUsers: 12, provider: 'stripe' },
        }),
      ),
    ).toBe('Ana Admin changed the plan from Professional to Enterprise, 12 seats, paid by card');
    // Changes Stripe made (no actor): the subscription's status, the seats.
    for (const [before, after, sentence] of [
      [
        { subscriptionStatus: 'active' },
        { subscriptionStatus: 'expired' },
        'Billing changed the subscription from active to expired',
      ],
      [{ maxUsers: 5 }, { maxUsers: 8 }, 'Billing changed the seats from 5 seats to 8 seats'],
    ] as const) {
      expect(auditSentence(entry({ ...billing, action: 'billing.plan_changed', actor: null, before, after }))).toBe(
        sentence,
      );
    }
    expect(
      auditSentence(
        entry({ ...billing, action: 'billing.payment_failed', actor: null, after: { amount: 17500, currency: 'usd' } }),
      ),
    ).toBe('Billing recorded a failed payment of $175');
    expect(
      auditSentence(
        entry({
          ...billing,
          action: 'billing.refused',
          after: { reason: 'Only organization admins can do this', call: 'GET /api/licenses/summary' },
        }),
      ),
    ).toBe('Ana Admin was refused a billing action: Only organization admins can do this');
  });

  it('words personal data requests without naming the recipient (the entry holds their id only)', () => {
    const recipient = { targetType: 'recipient', targetId: '00000000-0000-4000-8000-000000000042' };
    expect(
      auditSentence(entry({ ...recipient, action: 'recipient.personal_data_exported', after: { mailItems: 2 } })),
    ).toBe('Ana Admin exported the personal data of a recipient');
    expect(auditSentence(entry({ ...recipient, action: 'recipient.erased', after: { recipient: 1 } }))).toBe(
      'Ana Admin erased the personal data of a recipient',
    );
  });
});
