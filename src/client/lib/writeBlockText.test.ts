import { describe, expect, it } from 'vitest';
import { blockedNotice, blockedReason } from './writeBlockText';

describe('write block texts', () => {
  it('explains what is paused and what stays', () => {
    expect(blockedNotice('trial_expired', 'mail')).toBe(
      'Your free trial has ended. Everything logged so far stays available; logging new mail is paused until an admin chooses a plan.',
    );
    expect(blockedNotice('subscription_inactive', 'integrations')).toBe(
      'Your subscription is not active. Your integrations stay as they are; adding new integrations is paused until an admin chooses a plan.',
    );
  });

  it('gives a disabled button its short reason', () => {
    expect(blockedReason('trial_expired')).toBe('Paused: your free trial has ended');
    expect(blockedReason('subscription_inactive')).toBe('Paused: your subscription is not active');
  });
});
