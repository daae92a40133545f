import { describe, expect, it } from 'vitest';
import { NOTIFY_CHANNEL_MESSAGES } from '../../../contract';
import type { IntegrationConfig } from '../../db/schema';
import { checkChoice, recipientChannels } from './recipient-channels';

/** The one rule of the channels offered to a recipient and chosen by them (decision 065). */

const person = { email: 'amara@example.com', phone: '+15550001111', notifyChannels: null };
type Row = { type: string; config: IntegrationConfig };
const sms: Row = { type: 'sms', config: { smsSettings: { accountSid: 'AC1', authToken: 'x', fromNumber: '+1555' } } };
const email: Row = { type: 'email', config: { emailSettings: { smtpHost: 'smtp.example.com' } } };
const teams: Row = { type: 'teams', config: { teamsSettings: { webhookUrl: 'enc', mailroomId: null } } };
// A Slack workspace counts once its bot token is saved (decision 064).
const slack: Row = { type: 'slack', config: { slackSettings: { botToken: 'encrypted' } } };

describe('recipientChannels', () => {
  it('offers what the organization has and what reaches the person, in a fixed order', () => {
    expect(recipientChannels(person, [teams, slack, sms, email], false).offered).toEqual([
      'email',
      'sms',
      'slack',
      'teams',
    ]);
    // The platform's mail server is enough for email; an SMS integration without its account is not SMS.
    expect(
      recipientChannels(person, [{ type: 'sms', config: { smsSettings: { accountSid: 'AC1' } } }], true).offered,
    ).toEqual(['email']);
    // No phone: no SMS; no email: neither email nor Slack (Slack finds people by email).
    expect(
      recipientChannels({ ...person, phone: null, email: null }, [sms, email, slack, teams], true).offered,
    ).toEqual(['teams']);
    expect(recipientChannels(person, [], false).offered).toEqual([]);
    // A Slack integration without its token reaches nobody.
    expect(recipientChannels(person, [{ type: 'slack', config: {} }], false).offered).toEqual([]);
  });

  it('tells on the chosen channels among those offered, and on every one offered when none chosen reaches them', () => {
    const chosen = (notifyChannels: Array<'email' | 'sms' | 'slack' | 'teams'> | null, active: Row[]) => [
      ...recipientChannels({ ...person, notifyChannels }, active, true).chosen,
    ];
    expect(chosen(null, [sms, teams])).toEqual(['email', 'sms', 'teams']);
    expect(chosen(['sms', 'teams'], [sms, teams])).toEqual(['sms', 'teams']);
    // SMS chosen, the SMS account since removed: they still hear by email.
    expect(chosen(['sms'], [])).toEqual(['email']);
  });
});

describe('checkChoice', () => {
  it('keeps null, orders and deduplicates a set, refuses an empty one and one outside what is offered', () => {
    expect(checkChoice(null, ['email'])).toBeNull();
    expect(checkChoice(['teams', 'email', 'teams'], ['email', 'teams'])).toEqual(['email', 'teams']);
    expect(() => checkChoice([], ['email'])).toThrow(NOTIFY_CHANNEL_MESSAGES.empty);
    expect(() => checkChoice(['email', 'sms', 'slack'], ['email'])).toThrow(
      NOTIFY_CHANNEL_MESSAGES.notOffered(['SMS', 'Slack']),
    );
  });
});
