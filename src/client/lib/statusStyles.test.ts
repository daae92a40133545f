import { describe, expect, it } from 'vitest';
import {
  MAIL_STATUS_STYLES,
  SUBSCRIPTION_STATUS_STYLES,
  displayStatus,
  mailStatusStyle,
  notificationStatusStyle,
} from './statusStyles';

describe('mail item statuses', () => {
  it('are pending yellow, delivered green and every other status blue (spec §2)', () => {
    expect(mailStatusStyle('pending')).toEqual({ label: 'Pending', tone: 'yellow' });
    expect(mailStatusStyle('notified')).toEqual({ label: 'Notified', tone: 'blue' });
    expect(mailStatusStyle('delivered')).toEqual({ label: 'Delivered', tone: 'green' });
    expect(mailStatusStyle('returned')).toEqual({ label: 'Returned', tone: 'blue' });
  });

  it('name an item logged without a recipient (decision 041) as such, not pending', () => {
    expect(displayStatus('needs_recipient')).toBe('needs_recipient');
    expect(mailStatusStyle('needs_recipient')).toEqual({ label: 'Needs recipient', tone: 'neutral' });
  });

  it('show an unknown status as pending', () => {
    expect(displayStatus('lost_in_transit')).toBe('pending');
    expect(displayStatus('toString')).toBe('pending');
    expect(mailStatusStyle('')).toEqual(MAIL_STATUS_STYLES.pending);
  });
});

describe('other statuses', () => {
  it('give a notification message and a subscription one colour each', () => {
    expect(notificationStatusStyle('failed')).toEqual({ label: 'Failed', tone: 'red' });
    expect(notificationStatusStyle('no-such-status')).toEqual({ label: 'Queued', tone: 'neutral' });
    expect(SUBSCRIPTION_STATUS_STYLES.trial.tone).toBe('blue');
    expect(SUBSCRIPTION_STATUS_STYLES.expired.tone).toBe(SUBSCRIPTION_STATUS_STYLES.cancelled.tone);
  });
});
