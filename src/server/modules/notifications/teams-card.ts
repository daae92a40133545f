import { itemTypeLabel } from '../../../contract';

/**
 * The Adaptive Cards Pigeonhole posts to Teams channels (decision 065). Version 1.4: what every
 * Teams client renders (Workflows posts up to 1.5); checked against the Adaptive Card schema by
 * the tests' receiver (src/server/test/teams-receiver.ts). Plain TextBlocks and a FactSet, so
 * the card reads the same on the desktop, the web and a phone.
 */
export const ADAPTIVE_CARD_VERSION = '1.4';

type Fact = { title: string; value: string };

/** A date in the organization's time zone, as the desk reads it ('Dec 7, 2026, 9:14 AM'). */
function when(date: Date, timezone: string): string {
  const format = (timeZone: string) =>
    new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(date);
  try {
    return format(timezone);
  } catch {
    return `${format('UTC')} UTC`;
  }
}

function card(title: string, subtitle: string, facts: Fact[], action: { title: string; url: string }) {
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: ADAPTIVE_CARD_VERSION,
    body: [
      { type: 'TextBlock', text: title, weight: 'Bolder', size: 'Medium', wrap: true },
      { type: 'TextBlock', text: subtitle, isSubtle: true, spacing: 'None', wrap: true },
      // Empty values are left out: a FactSet row with nothing after its title reads as a fault.
      { type: 'FactSet', facts: facts.filter((f) => f.value.trim() !== '') },
    ],
    actions: [{ type: 'Action.OpenUrl', title: action.title, url: action.url }],
  };
}

export type TeamsItemFacts = {
  type: string;
  sender: string | null;
  courierCompany: string | null;
  trackingNumber: string | null;
  /** 'Shelf A, Lobby', or the mailroom alone. */
  location: string | null;
  arrivedAt: Date;
};

/** An item arrived for someone: who, what, from whom, where it waits and since when. */
export function arrivalCard(input: {
  organization: { name: string; timezone: string };
  recipient: { firstName: string; lastName: string; unit: string | null; department: string | null };
  item: TeamsItemFacts;
  url: string;
}) {
  const { recipient, item, organization } = input;
  const name = `${recipient.firstName} ${recipient.lastName}`.trim();
  const where = [recipient.unit && `Unit ${recipient.unit}`, recipient.department].filter(Boolean).join(' · ');
  const label = itemTypeLabel(item.type);
  return card(
    `${label} for ${name}`,
    `${organization.name}: arrived at the desk`,
    [
      { title: 'For', value: where ? `${name} (${where})` : name },
      { title: 'Type', value: label },
      { title: 'Sender', value: item.sender ?? item.courierCompany ?? '' },
      { title: 'Courier', value: item.sender && item.courierCompany ? item.courierCompany : '' },
      { title: 'Tracking', value: item.trackingNumber ?? '' },
      { title: 'Shelf', value: item.location ?? 'Not shelved yet' },
      { title: 'Arrived', value: when(item.arrivedAt, organization.timezone) },
    ],
    { title: 'Open in Pigeonhole', url: input.url },
  );
}

/** A staff event: an item was logged without a recipient, and the desk must find who it is for. */
export function needsRecipientCard(input: {
  organization: { name: string; timezone: string };
  item: TeamsItemFacts;
  url: string;
}) {
  const { item, organization } = input;
  const label = itemTypeLabel(item.type);
  return card(
    `${label} needs a recipient`,
    `${organization.name}: logged without a recipient; find who it is for`,
    [
      { title: 'Type', value: label },
      { title: 'Sender', value: item.sender ?? '' },
      { title: 'Courier', value: item.courierCompany ?? '' },
      { title: 'Tracking', value: item.trackingNumber ?? '' },
      { title: 'Shelf', value: item.location ?? 'Not shelved yet' },
      { title: 'Logged', value: when(item.arrivedAt, organization.timezone) },
    ],
    { title: 'Find the recipient', url: input.url },
  );
}

/** The card of Integrations' "Send test": says where it came from and that the channel works. */
export function testCard() {
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: ADAPTIVE_CARD_VERSION,
    body: [
      { type: 'TextBlock', text: 'Pigeonhole test card', weight: 'Bolder', size: 'Medium', wrap: true },
      {
        type: 'TextBlock',
        text: 'This channel will hear of arrivals and of items that need a recipient.',
        wrap: true,
      },
    ],
  };
}
