import type { WriteBlock } from '@contract';

/*
 * What a trial that ended or a subscription that lapsed pauses (the server refuses it with 402),
 * in the words of each screen. Pure text, so the unit test loads it without the app's aliases.
 */

/** What is paused while writing is blocked, per screen. */
export type BlockedArea = 'mail' | 'members' | 'integrations';

const pausedWhat: Record<BlockedArea, { kept: string; paused: string }> = {
  mail: { kept: 'Everything logged so far stays available', paused: 'logging new mail' },
  members: { kept: 'Everyone already in the organization keeps their access', paused: 'inviting new members' },
  integrations: { kept: 'Your integrations stay as they are', paused: 'adding new integrations' },
};

/**
 * "Your free trial has ended. Everything logged so far stays available; logging new mail is paused
 * until an admin chooses a plan."
 */
export function blockedNotice(block: WriteBlock, area: BlockedArea): string {
  const what = pausedWhat[area];
  const cause = block === 'trial_expired' ? 'Your free trial has ended.' : 'Your subscription is not active.';
  return `${cause} ${what.kept}; ${what.paused} is paused until an admin chooses a plan.`;
}

/** The short reason on a disabled button: "Paused: your free trial has ended". */
export function blockedReason(block: WriteBlock): string {
  return block === 'trial_expired' ? 'Paused: your free trial has ended' : 'Paused: your subscription is not active';
}
