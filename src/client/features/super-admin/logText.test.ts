import { describe, expect, it } from 'vitest';
import type { PlatformLogEntry } from '@contract';
import { changeText, logActor, logSummary } from './logText';

const entry = (over: Partial<PlatformLogEntry>): PlatformLogEntry => ({
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'super_admin',
  action: 'organization.updated',
  actor: { id: '00000000-0000-4000-8000-000000000002', email: 'ops@example.com' },
  targetType: 'organization',
  targetId: null,
  targetLabel: 'Harbor View',
  before: null,
  after: null,
  details: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  ...over,
});

describe('System Logs wording', () => {
  it('words a plan change with every field that changed', () => {
    const e = entry({
      before: { planType: 'trial', maxUsers: 5, maxPackagesPerMonth: 500 },
      after: { planType: 'enterprise', maxUsers: 10, maxPackagesPerMonth: -1 },
    });
    expect(logActor(e)).toBe('ops@example.com');
    expect(logSummary(e)).toBe(
      'changed the plan of Harbor View from Trial to Enterprise (seats 5 → 10, packages a month 500 → unlimited)',
    );
    expect(
      logSummary(
        entry({
          before: { planType: 'trial', subscriptionStatus: 'trial' },
          after: { planType: 'starter', subscriptionStatus: 'active' },
        }),
      ),
    ).toBe('changed the plan of Harbor View from Trial to Starter and its status from Trial to Active');
    expect(logSummary(entry({ before: { maxUsers: 5 }, after: { maxUsers: -1 } }))).toBe(
      'changed Harbor View: seats 5 → unlimited',
    );
    expect(changeText({ before: { subscriptionStatus: 'trial' }, after: { subscriptionStatus: 'cancelled' } })).toBe(
      'status Trial → Cancelled',
    );
  });

  it('words grants, shell commands, sign-in and webhook entries', () => {
    expect(logSummary(entry({ action: 'user.super_admin_granted', targetLabel: 'kim@example.com' }))).toBe(
      'granted super admin access to kim@example.com',
    );
    expect(logActor(entry({ actor: null, details: { via: 'shell' } }))).toBe('Shell command');
    const signIn = entry({
      kind: 'sign_in',
      action: 'sign_in.repeated_failures',
      actor: null,
      targetLabel: 'kim',
      details: { scope: 'account', attempts: 10 },
    });
    expect(logActor(signIn)).toBe('Sign-in guard');
    expect(logSummary(signIn)).toBe('refused sign-ins to "kim" after 10 failed attempts');
    expect(
      logSummary({
        ...signIn,
        targetLabel: '203.0.113.9',
        details: { scope: 'address', attempts: 30, windowMinutes: 15 },
      }),
    ).toBe('refused sign-ins from 203.0.113.9 after 30 failed attempts within 15 minutes');
    const hook = entry({
      kind: 'webhook',
      action: 'webhook.stripe_failed',
      actor: null,
      details: { code: 'unknown_customer', message: 'Unknown customer', eventType: 'invoice.paid' },
    });
    expect(logActor(entry({ actor: null, details: { via: 'inbox' } }))).toBe('Owner of the listed address');
    expect(
      logSummary(
        entry({
          kind: 'sign_in',
          action: 'sign_in.repeated_two_factor_failures',
          actor: null,
          targetLabel: 'kim@example.com',
          details: { attempts: 10, windowMinutes: 15 },
        }),
      ),
    ).toBe(
      'refused two-factor codes for kim@example.com after 10 wrong codes within 15 minutes; the owner was emailed',
    );
    expect(logActor(hook)).toBe('Payment provider');
    expect(logSummary(hook)).toBe('Stripe webhook refused: Unknown customer (invoice.paid)');
  });
});
