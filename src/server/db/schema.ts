import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

/**
 * The tables of the specification's section 3. Every tenant table carries organization_id first
 * in its keys and indexes, so every query can be scoped by it and the schema can later be
 * distributed by organization.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });

export const planType = pgEnum('plan_type', ['trial', 'starter', 'professional', 'enterprise']);
export const subscriptionStatus = pgEnum('subscription_status', ['trial', 'active', 'expired', 'cancelled']);
export const memberRole = pgEnum('member_role', ['admin', 'member']);
export const recipientType = pgEnum('recipient_type', ['guest', 'employee', 'resident']);
export const locationType = pgEnum('location_type', ['bin', 'shelf', 'locker', 'cabinet']);
export const integrationType = pgEnum('integration_type', ['email', 'sms', 'webhook', 'api']);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased; unique. */
    email: varchar('email', { length: 255 }).notNull(),
    /** A unique handle (spec-decisions: Accounts), compared case-insensitively. */
    username: varchar('username', { length: 50 }).notNull(),
    firstName: varchar('first_name', { length: 100 }),
    lastName: varchar('last_name', { length: 100 }),
    profileImageUrl: varchar('profile_image_url', { length: 2048 }),
    /** argon2id hash. */
    password: text('password').notNull(),
    isSuperAdmin: boolean('is_super_admin').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_username_lower_unique').on(sql`lower(${t.username})`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie's random token: a leaked table does not leak live sessions. */
    sid: varchar('sid', { length: 64 }).primaryKey(),
    sess: jsonb('sess').$type<{ userId: string; createdAt: string; ip?: string; userAgent?: string }>().notNull(),
    expire: ts('expire').notNull(),
    /** Kept beside sess so that all of a user's sessions can be ended in one statement. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sessions_expire_idx').on(t.expire), index('sessions_user_idx').on(t.userId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the emailed token. */
    token: varchar('token', { length: 64 }).notNull().unique(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/** Fixed-window counters for rate limits shared by every app instance. */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 300 }).primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull(),
});

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: varchar('name', { length: 255 }).notNull(),
  emailDomain: varchar('email_domain', { length: 255 }),
  address: text('address'),
  contactName: varchar('contact_name', { length: 255 }),
  contactEmail: varchar('contact_email', { length: 255 }),
  contactPhone: varchar('contact_phone', { length: 50 }),
  logoUrl: varchar('logo_url', { length: 2048 }),
  /** IANA timezone: "today" and report days are counted in it. */
  timezone: varchar('timezone', { length: 64 }).notNull().default('UTC'),
  /** -1 means unlimited. */
  maxUsers: integer('max_users').notNull().default(5),
  planType: planType('plan_type').notNull().default('trial'),
  subscriptionStatus: subscriptionStatus('subscription_status').notNull().default('trial'),
  stripeCustomerId: varchar('stripe_customer_id', { length: 255 }),
  stripeSubscriptionId: varchar('stripe_subscription_id', { length: 255 }),
  billingEmail: varchar('billing_email', { length: 255 }),
  trialStartDate: ts('trial_start_date'),
  trialEndDate: ts('trial_end_date'),
  /** -1 means unlimited. */
  maxPackagesPerMonth: integer('max_packages_per_month').notNull().default(500),
  currentMonthPackages: integer('current_month_packages').notNull().default(0),
  usageResetDate: ts('usage_reset_date'),
  billingCycle: varchar('billing_cycle', { length: 20 }).notNull().default('monthly'),
  nextBillingDate: ts('next_billing_date'),
  lastPaymentDate: ts('last_payment_date'),
  /** Cents. */
  lastPaymentAmount: integer('last_payment_amount'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const organizationLicenses = pgTable(
  'organization_licenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    planType: planType('plan_type').notNull(),
    quantity: integer('quantity').notNull(),
    purchaseDate: ts('purchase_date').notNull().defaultNow(),
    startDate: ts('start_date').notNull().defaultNow(),
    expirationDate: ts('expiration_date'),
    stripeSubscriptionId: varchar('stripe_subscription_id', { length: 255 }),
    stripeInvoiceId: varchar('stripe_invoice_id', { length: 255 }),
    /** Cents. */
    pricePerLicense: integer('price_per_license').notNull().default(3500),
    /** Cents. */
    totalAmount: integer('total_amount').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    cancelledAt: ts('cancelled_at'),
    refundedAt: ts('refunded_at'),
  },
  (t) => [
    index('organization_licenses_org_idx').on(t.organizationId, t.isActive),
    check('organization_licenses_quantity_positive', sql`${t.quantity} >= 1`),
  ],
);

export const organizationMembers = pgTable(
  'organization_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: memberRole('role').notNull().default('member'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('organization_members_org_user_unique').on(t.organizationId, t.userId),
    // "my organizations" looks members up by user.
    index('organization_members_user_idx').on(t.userId),
  ],
);

export const userInvitations = pgTable(
  'user_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: varchar('email', { length: 255 }).notNull(),
    role: memberRole('role').notNull().default('member'),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    /** SHA-256 of the emailed token. */
    token: varchar('token', { length: 64 }).notNull().unique(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('user_invitations_org_idx').on(t.organizationId, t.email)],
);

/** The text recipient search matches against; an index of the same expression serves it. */
export const RECIPIENT_SEARCH_SQL = sql.raw(
  `lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(unit, '') || ' ' || coalesce(department, ''))`,
);

export const recipients = pgTable(
  'recipients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    firstName: varchar('first_name', { length: 100 }).notNull(),
    lastName: varchar('last_name', { length: 100 }).notNull(),
    email: varchar('email', { length: 255 }),
    phone: varchar('phone', { length: 50 }),
    unit: varchar('unit', { length: 100 }),
    department: varchar('department', { length: 255 }),
    recipientType: recipientType('recipient_type').notNull().default('guest'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('recipients_org_active_idx').on(t.organizationId, t.isActive),
    index('recipients_org_name_idx').on(t.organizationId, t.lastName, t.firstName),
    // Substring search over name, email, unit and department (the repository uses the same expression).
    index('recipients_search_trgm_idx').using('gin', sql`(${RECIPIENT_SEARCH_SQL}) gin_trgm_ops`),
  ],
);

export const mailrooms = pgTable(
  'mailrooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 255 }).notNull(),
    description: text('description'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('mailrooms_org_idx').on(t.organizationId)],
);

export const mailroomLocations = pgTable(
  'mailroom_locations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    mailroomId: uuid('mailroom_id')
      .notNull()
      .references(() => mailrooms.id, { onDelete: 'restrict' }),
    name: varchar('name', { length: 255 }).notNull(),
    type: locationType('type').notNull().default('bin'),
    capacity: integer('capacity').notNull().default(20),
    /** Items held that are not yet delivered or returned; kept by the server. */
    currentCount: integer('current_count').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('mailroom_locations_org_mailroom_idx').on(t.organizationId, t.mailroomId),
    check('mailroom_locations_capacity_positive', sql`${t.capacity} >= 1`),
    check('mailroom_locations_count_nonnegative', sql`${t.currentCount} >= 0`),
  ],
);

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/** Re-encoded mail item photos (EXIF removed) and their thumbnails, served by URL to members only. */
export const photos = pgTable(
  'photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    contentType: varchar('content_type', { length: 50 }).notNull(),
    data: bytea('data').notNull(),
    thumbnail: bytea('thumbnail').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('photos_org_idx').on(t.organizationId)],
);

export const mailItems = pgTable(
  'mail_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id').references(() => recipients.id, { onDelete: 'set null' }),
    locationId: uuid('location_id').references(() => mailroomLocations.id, { onDelete: 'set null' }),
    mailroomId: uuid('mailroom_id').references(() => mailrooms.id, { onDelete: 'set null' }),
    trackingNumber: varchar('tracking_number', { length: 255 }),
    /** One of the organization's packageTypes (checked by the service). */
    type: varchar('type', { length: 50 }).notNull(),
    sender: varchar('sender', { length: 255 }),
    courierCompany: varchar('courier_company', { length: 100 }),
    collectedByStaff: varchar('collected_by_staff', { length: 255 }),
    collectorName: varchar('collector_name', { length: 255 }),
    senderAddress: text('sender_address'),
    description: text('description'),
    size: varchar('size', { length: 50 }),
    weight: varchar('weight', { length: 50 }),
    status: varchar('status', { length: 50 }).notNull().default('pending'),
    arrivedAt: ts('arrived_at').notNull().defaultNow(),
    notifiedAt: ts('notified_at'),
    deliveredAt: ts('delivered_at'),
    notes: text('notes'),
    /** The photo lives outside this row, so list queries never carry image bytes. */
    photoId: uuid('photo_id').references(() => photos.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The staff member who handed the item over. */
    handedOverBy: uuid('handed_over_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // status last: History's date-range counts by status read the index alone.
    index('mail_items_org_arrived_idx').on(t.organizationId, t.arrivedAt, t.status),
    index('mail_items_org_status_arrived_idx').on(t.organizationId, t.status, t.arrivedAt),
    index('mail_items_org_recipient_idx').on(t.organizationId, t.recipientId),
    index('mail_items_org_location_idx').on(t.organizationId, t.locationId),
    index('mail_items_org_tracking_idx').on(t.organizationId, t.trackingNumber),
    // Pending Pickups and the pending counters read only items not yet handed over.
    index('mail_items_org_waiting_arrived_idx')
      .on(t.organizationId, t.arrivedAt, t.id)
      .where(sql`${t.status} in ('pending', 'notified')`),
  ],
);

/** Append-only: no call updates or deletes these rows; they outlive their item. */
export const mailItemHistory = pgTable(
  'mail_item_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Orders rows written in one transaction (they share created_at). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** No foreign key: history is kept when its item is deleted. */
    mailItemId: uuid('mail_item_id').notNull(),
    action: varchar('action', { length: 50 }).notNull(),
    previousStatus: varchar('previous_status', { length: 50 }),
    newStatus: varchar('new_status', { length: 50 }),
    notes: text('notes'),
    performedBy: uuid('performed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('mail_item_history_org_item_idx').on(t.organizationId, t.mailItemId, t.seq)],
);

export type IntegrationConfig = {
  apiKey?: string;
  webhookUrl?: string;
  emailSettings?: { smtpHost?: string; smtpPort?: number; username?: string; password?: string };
  smsSettings?: { accountSid?: string; authToken?: string; fromNumber?: string };
};

export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 255 }).notNull(),
    type: integrationType('type').notNull(),
    /** Secrets inside are encrypted at rest (notifications slice). */
    config: jsonb('config').$type<IntegrationConfig>().notNull().default({}),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('integrations_org_idx').on(t.organizationId, t.type)],
);

export const DEFAULT_SETTINGS = {
  packageTypes: ['package', 'letter', 'certified_mail', 'express', 'fragile'],
  packageSizes: ['small', 'medium', 'large', 'extra_large'],
  courierCompanies: ['FedEx', 'UPS', 'DHL', 'USPS', 'Amazon', 'Other'],
  customStatuses: ['pending', 'notified', 'delivered', 'returned'],
  allowEditAfterDelivery: false,
  requirePhotoUpload: false,
  autoNotifyRecipients: true,
};

export const organizationSettings = pgTable('organization_settings', {
  id: uuid('id').primaryKey().defaultRandom(),
  organizationId: uuid('organization_id')
    .notNull()
    .unique()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  packageTypes: jsonb('package_types').$type<string[]>().notNull().default(DEFAULT_SETTINGS.packageTypes),
  packageSizes: jsonb('package_sizes').$type<string[]>().notNull().default(DEFAULT_SETTINGS.packageSizes),
  courierCompanies: jsonb('courier_companies').$type<string[]>().notNull().default(DEFAULT_SETTINGS.courierCompanies),
  customStatuses: jsonb('custom_statuses').$type<string[]>().notNull().default(DEFAULT_SETTINGS.customStatuses),
  allowEditAfterDelivery: boolean('allow_edit_after_delivery').notNull().default(false),
  requirePhotoUpload: boolean('require_photo_upload').notNull().default(false),
  autoNotifyRecipients: boolean('auto_notify_recipients').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
