import type { Recipient } from '@contract';

export function recipientName(recipient: Pick<Recipient, 'firstName' | 'lastName'>): string {
  return `${recipient.firstName} ${recipient.lastName}`.trim();
}
