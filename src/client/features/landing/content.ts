import {
  Archive,
  BellRing,
  Briefcase,
  Building2,
  Camera,
  ChartColumn,
  Clock,
  FileSpreadsheet,
  History,
  Hotel,
  ScanBarcode,
  School,
  Webhook,
  type LucideIcon,
} from 'lucide-react';

/**
 * The landing page's words. Every claim here is something the product does today (README "What it
 * does today", docs/roles.md); nothing is promised that a customer could not find in the app.
 */

export interface Feature {
  icon: LucideIcon;
  title: string;
  text: string;
}

export const features: Feature[] = [
  {
    icon: ScanBarcode,
    title: 'Log a parcel in seconds',
    text: 'A USB scanner types the tracking number, the courier is recognised from its format (UPS, FedEx, USPS, DHL, Amazon, OnTrac) and the recipient is picked as you type. No scanner? Use the camera.',
  },
  {
    icon: Camera,
    title: 'A photo of every item',
    text: 'Photograph the parcel or its label at the desk. Photos are checked, re-encoded and stripped of location data before they are stored.',
  },
  {
    icon: Archive,
    title: 'Smart sorting',
    text: 'Shelves, bins, lockers and cabinets in each mailroom, with live counts, so whoever is on shift knows exactly where a parcel went.',
  },
  {
    icon: BellRing,
    title: 'Recipients hear at once',
    text: 'Arrival emails and SMS, reminders for parcels still waiting and a receipt at pickup, sent automatically through your own mail server or ours, and your Twilio account.',
  },
  {
    icon: Clock,
    title: 'Nothing left on the shelf',
    text: 'Pending Pickups lists overdue items first. Hand-over records who collected the parcel, and when.',
  },
  {
    icon: History,
    title: 'An audit trail for every item',
    text: 'Each change lands on the item’s append-only timeline. Filter the history by date, type and status, search it by tracking number, sender or recipient, and export any range to CSV.',
  },
  {
    icon: ChartColumn,
    title: 'Analytics that answer questions',
    text: 'Packages per day, by courier and type, average and 90th-percentile pickup times, busiest hours and top recipients, each with its numbers as a table.',
  },
  {
    icon: Webhook,
    title: 'Connects to your systems',
    text: 'Signed webhooks for every mail item event, and a REST API with keys of your own and interactive documentation.',
  },
  {
    icon: FileSpreadsheet,
    title: 'Bring your recipients',
    text: 'Import residents, guests or employees from a CSV file, with a preview, per-row errors and duplicates caught before anything is written.',
  },
];

export interface PropertyType {
  icon: LucideIcon;
  title: string;
  text: string;
  points: string[];
}

export const propertyTypes: PropertyType[] = [
  {
    icon: Building2,
    title: 'Residential buildings',
    text: 'Concierge desks and leasing offices that receive parcels for every unit.',
    points: [
      'Recipients with their unit',
      'Arrival emails and SMS to residents',
      'Reminders for parcels still waiting',
    ],
  },
  {
    icon: Hotel,
    title: 'Hotels',
    text: 'Front desks holding deliveries for guests until they check in or come down.',
    points: ['Guests as recipients, with their room', 'Lockers and back-office shelves', 'Who collected it, on record'],
  },
  {
    icon: Briefcase,
    title: 'Offices',
    text: 'Mailrooms sorting letters, parcels and certified mail for employees and departments.',
    points: [
      'Employees with their department',
      'Letters, packages and certified mail',
      'Busiest hours and pickup times',
    ],
  },
  {
    icon: School,
    title: 'Campuses and portfolios',
    text: 'Several mailrooms, or several properties, run by one team.',
    points: [
      'Many mailrooms in one organization',
      'One sign-in across organizations',
      'Each organization’s data kept apart',
    ],
  },
];

export const adminAbilities = [
  'Everything a member can do',
  'Invite people by email and choose their role',
  'Organization settings, mailrooms and storage locations',
  'Integrations, webhooks and API keys',
  'Billing, plans and licences',
  'The audit log of who changed what',
];

export const memberAbilities = [
  'Log, edit and photograph mail items',
  'Notify recipients and hand items over',
  'Add, edit and deactivate recipients',
  'Search the history, export it and read the reports',
];

export const safeguards = [
  'Every organization’s data is walled off twice: each query is filtered by organization, and PostgreSQL row-level security enforces it underneath.',
  'Roles are enforced by the server, not only hidden in the screens.',
  'Optional two-factor sign-in with an authenticator app, with recovery codes.',
];
