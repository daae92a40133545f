import { sql } from 'drizzle-orm';
import type { StaffLanguage } from '../../contract/languages';
import type { IdentifiedBy } from '../../contract/handovers';
import type { NotifyChannel } from '../../contract/notify-channels';
import type { Language } from '../../contract/languages';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
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
export const integrationType = pgEnum('integration_type', ['email', 'sms', 'webhook', 'api', 'slack', 'teams']);

/** The text the super admin's user search matches: email, username and full name. */
export const USER_SEARCH_SQL = sql.raw(
  `lower(email || ' ' || username || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, ''))`,
);

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
    /** When the owner followed the emailed verification link (or joined through an emailed invitation). */
    emailVerifiedAt: ts('email_verified_at'),
    /**
     * The TOTP secret (base32), encrypted with SECRETS_KEY. Set by setup; in force once
     * twoFactorEnabledAt is set (a code from the app proved the owner holds it).
     */
    twoFactorSecret: text('two_factor_secret'),
    twoFactorEnabledAt: ts('two_factor_enabled_at'),
    /** The last 30-second step whose code was accepted: a code works once (no replay). */
    twoFactorLastStep: bigint('two_factor_last_step', { mode: 'number' }),
    /** The staff screens' language chosen in Account settings (migration 0047); null follows the browser. */
    language: varchar('language', { length: 16 }).$type<StaffLanguage>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_username_lower_unique').on(sql`lower(${t.username})`),
    // The super admin console lists users newest first and searches them by substring.
    index('users_created_idx').on(t.createdAt, t.id),
    index('users_search_trgm_idx').using('gin', sql`(${USER_SEARCH_SQL}) gin_trgm_ops`),
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

/**
 * A table of single-use tokens of a user, stored as SHA-256 (password reset links, email
 * verification links, two-factor sign-in challenges): one shape, one lifecycle (expires, used once).
 */
const singleUseTokens = (name: string) =>
  pgTable(
    name,
    {
      id: uuid('id').primaryKey().defaultRandom(),
      userId: uuid('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      /** SHA-256 of the token handed out. */
      token: varchar('token', { length: 64 }).notNull().unique(),
      expiresAt: ts('expires_at').notNull(),
      usedAt: ts('used_at'),
      createdAt: createdAt(),
    },
    (t) => [index(`${name}_user_idx`).on(t.userId)],
  );

/** Emailed password reset links. */
export const passwordResetTokens = singleUseTokens('password_reset_tokens');

/** Single-use links that prove an account's email address (sent at registration). */
export const emailVerificationTokens = singleUseTokens('email_verification_tokens');

/**
 * The second step of a sign-in with two-factor authentication: the password was right, a code is
 * still owed. Short-lived and single-use; no session exists until the code is given.
 */
export const twoFactorChallenges = singleUseTokens('two_factor_challenges');

/** Single-use recovery codes of an account with two-factor authentication (stored hashed). */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the code (normalised: lower case, no dash). */
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('two_factor_recovery_codes_user_code_unique').on(t.userId, t.codeHash)],
);

/** Fixed-window counters for rate limits shared by every app instance. */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 300 }).primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull(),
});

/** The text the super admin's organization search matches: name and email domain. */
/**
 * `case when … is null` rather than coalesce in the search expressions: under row-level security
 * PostgreSQL uses an index for a condition only if every part of it is known not to leak (see
 * db/row-level-security.ts), and coalesce is not among those parts; CASE is.
 */
const blankIfNull = (column: string) => `case when ${column} is null then '' else ${column} end`;

export const ORGANIZATION_SEARCH_SQL = sql.raw(`lower(name || ' ' || ${blankIfNull('email_domain')})`);

export const organizations = pgTable(
  'organizations',
  {
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
    billingCycle: varchar('billing_cycle', { length: 20 }).notNull().default('monthly'),
    nextBillingDate: ts('next_billing_date'),
    lastPaymentDate: ts('last_payment_date'),
    /** Cents. */
    lastPaymentAmount: integer('last_payment_amount'),
    /** How the current plan is paid: 'stripe', 'paypal' or 'demo' (the local simulated provider); null on a trial. */
    billingProvider: varchar('billing_provider', { length: 16 }),
    /**
     * The `created` time of the newest Stripe subscription event applied: an older event delivered
     * later (Stripe does not promise order) changes nothing.
     */
    stripeSubscriptionEventAt: ts('stripe_subscription_event_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The super admin console lists organizations newest first and searches them by substring.
    index('organizations_created_idx').on(t.createdAt, t.id),
    index('organizations_search_trgm_idx').using('gin', sql`(${ORGANIZATION_SEARCH_SQL}) gin_trgm_ops`),
  ],
);

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
    /** 'stripe', 'paypal' or 'demo'. */
    provider: varchar('provider', { length: 16 }).notNull().default('stripe'),
    /**
     * The purchase this licence records, in the provider's terms (a Stripe subscription, a PayPal
     * capture, a demo checkout): unique, so a replayed event or a repeated capture adds no row.
     */
    sourceRef: varchar('source_ref', { length: 255 }),
  },
  (t) => [
    index('organization_licenses_org_idx').on(t.organizationId, t.isActive),
    uniqueIndex('organization_licenses_source_unique').on(t.provider, t.sourceRef),
    check('organization_licenses_quantity_positive', sql`${t.quantity} >= 1`),
  ],
);

/**
 * A purchase an organization started: a Stripe Checkout Session, a PayPal order or a demo
 * checkout, with the plan and seats the server priced. Payments are checked against it, never
 * against what a client or an event claims.
 */
export const billingCheckouts = pgTable(
  'billing_checkouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** 'stripe', 'paypal' or 'demo'. */
    provider: varchar('provider', { length: 16 }).notNull(),
    /** The provider's id: a Checkout Session (cs_…), a PayPal order, or DEMO-… for a demo PayPal order. */
    providerRef: varchar('provider_ref', { length: 255 }),
    planType: planType('plan_type').notNull(),
    quantity: integer('quantity').notNull(),
    /** Cents a month: quantity × the plan's price. */
    amount: integer('amount').notNull(),
    currency: varchar('currency', { length: 3 }).notNull().default('USD'),
    /**
     * open; capturing (a PayPal capture in flight); awaiting_payment (Stripe completed the session,
     * the money has not come in yet); completed; failed (that payment failed or never came).
     */
    status: varchar('status', { length: 16 }).notNull().default('open'),
    customerEmail: varchar('customer_email', { length: 255 }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    uniqueIndex('billing_checkouts_provider_ref_unique').on(t.provider, t.providerRef),
    index('billing_checkouts_org_idx').on(t.organizationId, t.createdAt),
  ],
);

/** Money that moved, or a charge that failed: the payment history and the platform's revenue. */
export const billingPayments = pgTable(
  'billing_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    provider: varchar('provider', { length: 16 }).notNull(),
    /** A Stripe invoice, a PayPal capture, a demo checkout. */
    providerRef: varchar('provider_ref', { length: 255 }).notNull(),
    /** paid or failed. */
    status: varchar('status', { length: 16 }).notNull(),
    /** Cents. */
    amount: integer('amount').notNull(),
    currency: varchar('currency', { length: 3 }).notNull().default('USD'),
    planType: planType('plan_type'),
    quantity: integer('quantity'),
    description: text('description').notNull(),
    invoiceUrl: varchar('invoice_url', { length: 2048 }),
    createdAt: createdAt(),
  },
  (t) => [
    // One row per outcome of a charge: an invoice may fail, then be paid.
    uniqueIndex('billing_payments_ref_unique').on(t.provider, t.providerRef, t.status),
    index('billing_payments_org_idx').on(t.organizationId, t.createdAt),
  ],
);

/** Provider webhook events already handled: the same event delivered twice changes nothing twice. */
export const billingEvents = pgTable(
  'billing_events',
  {
    provider: varchar('provider', { length: 16 }).notNull(),
    eventId: varchar('event_id', { length: 255 }).notNull(),
    type: varchar('type', { length: 64 }).notNull(),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    receivedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
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
  `lower(first_name || ' ' || last_name || ' ' || ${blankIfNull('email')} || ' ' || ${blankIfNull('unit')} || ' ' || ${blankIfNull('department')})`,
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
    /** Set when the recipient follows the unsubscribe link of a message: no more email or SMS. */
    notificationsOptOutAt: ts('notifications_opt_out_at'),
    /**
     * What the recipient shows at the desk to collect (decision 031): six characters of
     * PICKUP_CODE_ALPHABET, drawn by PostgreSQL (migration 0022) on insert and on regeneration,
     * re-drawn by a trigger until no other recipient of the organization holds it.
     */
    pickupCode: varchar('pickup_code', { length: 6 })
      .notNull()
      .default(sql`pickup_code_draw()`),
    /**
     * The channels the recipient wants to hear on, chosen on their own page (decisions 032, 065):
     * null is every channel the organization offers them, as before there was a choice; a set is
     * never empty (a check), and notifications/recipient-channels.ts reads it.
     */
    notifyChannels: text('notify_channels').array().$type<NotifyChannel[]>(),
    /**
     * Which directory feed owns the recipient (issue 43, migration 0038): 'scim' or 'roster', null
     * for one typed or imported by hand. The desk may not edit the fields the feed owns.
     */
    managedBy: varchar('managed_by', { length: 10 }).$type<'scim' | 'roster'>(),
    /** The feed's own key for the person (SCIM externalId, the roster's id column). */
    externalId: varchar('external_id', { length: 255 }),
    /** When the feed said the person left; the desk shows their waiting items as "left". */
    leftAt: ts('left_at'),
    /** SCIM's preferredLanguage as sent (a BCP 47 tag). */
    preferredLanguage: varchar('preferred_language', { length: 35 }),
    /**
     * The language of the recipient's messages and page (migration 0046, decision 066): one of
     * SUPPORTED_LANGUAGES, set by the desk, the CSV import, SCIM (from preferredLanguage) or the
     * recipient's own switch; null: the organization's default_language.
     */
    language: varchar('language', { length: 16 }).$type<Language>(),
    /** SCIM's userName (migration 0040): unique per organization ignoring case, what `userName eq` finds. */
    scimUserName: varchar('scim_user_name', { length: 255 }),
    /**
     * The SCIM department group whose name `department` holds (migration 0042, decision 060); null
     * when the department is the user's own (the enterprise extension's, which wins) or the desk's.
     */
    departmentGroupId: uuid('department_group_id').references((): AnyPgColumn => scimGroups.id, {
      onDelete: 'set null',
    }),
    /**
     * The email in lower case and the phone's digits, computed by PostgreSQL (migration 0033,
     * decision 051): what a link asked for on the recipient's page is looked up by, through an
     * index. Never written by the app; they follow the email and phone (an erasure clears them).
     */
    emailNormalized: text('email_normalized').generatedAlwaysAs(sql`lower(email)`),
    phoneDigits: text('phone_digits').generatedAlwaysAs(sql`regexp_replace(phone, '\\D', '', 'g')`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'recipients_notify_channels_check',
      sql`${t.notifyChannels} is null or (cardinality(${t.notifyChannels}) > 0 and ${t.notifyChannels} <@ array['email', 'sms', 'slack', 'teams']::text[])`,
    ),
    check('recipients_managed_by_check', sql`${t.managedBy} in ('scim', 'roster')`),
    check('recipients_external_id_managed_check', sql`${t.externalId} is null or ${t.managedBy} is not null`),
    // Partial, so a planner without statistics never takes it for a lookup by organization alone.
    uniqueIndex('recipients_org_feed_external_id_idx')
      .on(t.organizationId, t.managedBy, t.externalId)
      .where(sql`${t.externalId} is not null`),
    // A mail item's recipient is looked up by organization and id. A planner without statistics
    // (db/plans-without-statistics.test.ts) takes the smallest index that starts with the
    // organization for that, so this is the smallest one: the others start with what they narrow
    // by or are wider, or it read all the organization's recipients for each item. Same for
    // mailrooms and their locations.
    uniqueIndex('recipients_org_id_idx').on(t.organizationId, t.id),
    // Led by the code, like the others that narrow by their own value: led by the organization it
    // would be the smallest such index, and a planner without statistics would find recipients by id through it.
    uniqueIndex('recipients_pickup_code_org_idx').on(t.pickupCode, t.organizationId),
    index('recipients_active_org_idx').on(t.isActive, t.organizationId),
    index('recipients_org_name_idx').on(t.organizationId, t.lastName, t.firstName),
    // Substring search over name, email, unit and department (the repository uses the same expression).
    index('recipients_search_trgm_idx').using('gin', sql`(${RECIPIENT_SEARCH_SQL}) gin_trgm_ops`),
    // Who a link asked for on the recipient's page goes to, in every organization (decision 051).
    index('recipients_email_normalized_idx').on(t.emailNormalized),
    index('recipients_phone_digits_idx').on(t.phoneDigits),
    // SCIM (migration 0040): `userName eq` by this index; a POST adopts a hand-typed recipient by email.
    uniqueIndex('recipients_org_scim_user_name_idx')
      .on(t.organizationId, sql`lower(${t.scimUserName})`)
      .where(sql`${t.scimUserName} is not null`),
    index('recipients_org_email_normalized_idx')
      .on(t.organizationId, t.emailNormalized)
      .where(sql`${t.managedBy} is null`),
  ],
);

/**
 * People a recipient allows to collect for them (decision 031): the desk sees the list at
 * hand-over, and handing over to someone not on it asks for a reason.
 */
export const recipientProxies = pgTable(
  'recipient_proxies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => recipients.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 255 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('recipient_proxies_org_recipient_name_idx').on(t.organizationId, t.recipientId, sql`lower(${t.name})`),
  ],
);

/**
 * Single-use links that sign a recipient in to their own page (decision 032): asked for on /my
 * (15 minutes) or written into an arrival or reminder email (7 days). Only the token's SHA-256 is kept.
 */
export const recipientLinks = pgTable(
  'recipient_links',
  {
    tokenHash: varchar('token_hash', { length: 64 }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => recipients.id, { onDelete: 'cascade' }),
    purpose: varchar('purpose', { length: 20 }).$type<'requested' | 'arrival'>().notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('recipient_links_expires_idx').on(t.expiresAt),
    index('recipient_links_recipient_idx').on(t.recipientId),
  ],
);

/** A recipient signed in to their own page: a principal of its own, never a user's session. */
export const recipientSessions = pgTable(
  'recipient_sessions',
  {
    /** SHA-256 of the cookie's token. */
    sid: varchar('sid', { length: 64 }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => recipients.id, { onDelete: 'cascade' }),
    expire: ts('expire').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('recipient_sessions_expire_idx').on(t.expire),
    index('recipient_sessions_recipient_idx').on(t.recipientId),
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
  // Lists by organization and lookups by organization and id (recipients_org_id_idx says why).
  (t) => [uniqueIndex('mailrooms_org_id_idx').on(t.organizationId, t.id)],
);

/**
 * An organization's email domains (decision 058): claimed by an admin, verified by a DNS TXT
 * record or a super admin. Several organizations may claim one domain while it is pending; it is
 * verified by at most one (organization_domains_verified_domain_idx), the one whose single sign-on
 * will sign its addresses in.
 */
export const organizationDomains = pgTable(
  'organization_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Lower-cased, IDNA (punycode) form, no trailing dot (contract's normaliseDomain). */
    domain: varchar('domain', { length: 253 }).notNull(),
    /** Random; the TXT record's value is `pigeonhole-verification=<token>`. */
    verificationToken: varchar('verification_token', { length: 64 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    verifiedAt: ts('verified_at'),
    /** 'dns', or the id of the super admin who verified it. */
    verifiedBy: varchar('verified_by', { length: 64 }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('organization_domains_org_id_idx').on(t.organizationId, t.id),
    uniqueIndex('organization_domains_org_domain_idx').on(t.organizationId, t.domain),
    // At most one organization holds a domain verified; sign-in looks the owner up by it.
    uniqueIndex('organization_domains_verified_domain_idx')
      .on(t.domain)
      .where(sql`${t.status} = 'verified'`),
    check('organization_domains_status_check', sql`${t.status} in ('pending', 'verified')`),
    check(
      'organization_domains_verified_check',
      sql`(${t.status} = 'verified') = (${t.verifiedAt} is not null and ${t.verifiedBy} is not null)`,
    ),
  ],
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
    isActive: boolean('is_active').notNull().default(true),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('mailroom_locations_org_id_idx').on(t.organizationId, t.id),
    index('mailroom_locations_mailroom_org_idx').on(t.mailroomId, t.organizationId),
    check('mailroom_locations_capacity_positive', sql`${t.capacity} >= 1`),
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

/**
 * The proof of one hand-over (decision 031): who collected, how they were identified, their
 * signature and an optional photo (rows of `photos`, served by URL like item photos, never inline
 * in a list), and the staff member. The items handed over point at it (mail_items.handover_id).
 */
export const handovers = pgTable(
  'handovers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id').references(() => recipients.id, { onDelete: 'set null' }),
    collectorName: varchar('collector_name', { length: 255 }).notNull(),
    identifiedBy: varchar('identified_by', { length: 20 }).$type<IdentifiedBy>().notNull(),
    /** Why someone not on the recipient's list of proxies collected (null: the recipient or a proxy). */
    proxyReason: text('proxy_reason'),
    signaturePhotoId: uuid('signature_photo_id').references(() => photos.id, { onDelete: 'set null' }),
    photoId: uuid('photo_id').references(() => photos.id, { onDelete: 'set null' }),
    handedOverBy: uuid('handed_over_by').references(() => users.id, { onDelete: 'set null' }),
    /** The API key a hand-over came through (decision 050); null with apiKeyName null: the desk. */
    apiKeyId: uuid('api_key_id').references((): AnyPgColumn => apiKeys.id, { onDelete: 'set null' }),
    /** The key's name when it was used, kept when the key is deleted or renamed. */
    apiKeyName: varchar('api_key_name', { length: 255 }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('handovers_org_id_idx').on(t.organizationId, t.id)],
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
    /** The proof of the hand-over (signature, identification), when it was handed over with one. */
    handoverId: uuid('handover_id').references(() => handovers.id, { onDelete: 'set null' }),
    /**
     * Held at the recipient's request (decision 035): the moment the hold ends, the midnight after
     * the date they chose in the organization's timezone. Not overdue and no reminder until then.
     */
    heldUntil: ts('held_until'),
    /** The recipient's expected package this item matched at intake (decision 033), if any. */
    expectedPackageId: uuid('expected_package_id').references((): AnyPgColumn => expectedPackages.id, {
      onDelete: 'set null',
    }),
    /**
     * The item's revision (decision 044): 1 at intake, one more with every write of the item (the
     * edit statement, the hand-over, the worker's notified, an erasure). A clerk's edit names the
     * revision it was made from (If-Match) and is refused with 409 when the item moved on.
     */
    revision: integer('revision').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The lists' order (arrival, then id: Mail Intake, History, the recent activity read a page of
    // it without sorting); status last, so History's date-range counts by status read the index
    // alone. It is the one index (but the partial ones) that starts with organization_id: without
    // statistics (a bulk load, a data-only restore) the planner guesses an organization holds a
    // handful of rows, and would read all of them through the smallest index that starts with
    // organization_id, then sort them (decision 026; plans-without-statistics.test.ts).
    index('mail_items_org_arrived_idx').on(t.organizationId, t.arrivedAt, t.id, t.status),
    // The others lead with their own value: the filters match each column by equality, so the
    // order serves them as well, and a recipient's or location's deletion (on delete set null)
    // finds its items by value.
    index('mail_items_status_org_arrived_idx').on(t.status, t.organizationId, t.arrivedAt),
    index('mail_items_recipient_org_idx').on(t.recipientId, t.organizationId),
    index('mail_items_location_org_idx').on(t.locationId, t.organizationId),
    // A location's current count is the items held there (not delivered or returned), counted
    // from this index rather than kept in a counter row every intake would have to lock.
    index('mail_items_org_held_location_idx')
      .on(t.organizationId, t.locationId)
      .where(sql`${t.status} not in ('delivered', 'returned') and ${t.locationId} is not null`),
    index('mail_items_tracking_org_idx').on(t.trackingNumber, t.organizationId),
    // A recipient's waiting items in arrival order: the hand-over by pickup code (decision 031)
    // reads them alone, however many items the organization holds or has waiting.
    index('mail_items_recipient_waiting_idx')
      .on(t.recipientId, t.organizationId, t.arrivedAt, t.id)
      .where(sql`${t.status} in ('pending', 'notified')`),
    // A hand-over's items (its proof page, the receipt); most items have none.
    index('mail_items_handover_idx')
      .on(t.handoverId)
      .where(sql`${t.handoverId} is not null`),
    // The few waiting items on hold: the overdue counters subtract those held now (decision 035).
    index('mail_items_org_on_hold_idx')
      .on(t.organizationId, t.heldUntil, t.arrivedAt)
      .where(sql`${t.status} in ('pending', 'notified') and ${t.heldUntil} is not null`),
    // An expected package removed (by its recipient, their erasure) finds the item that matched
    // it (on delete set null) without reading the organization's items; most items have none.
    index('mail_items_expected_package_idx')
      .on(t.expectedPackageId)
      .where(sql`${t.expectedPackageId} is not null`),
    // Pending Pickups and the pending counters read only items not yet handed over.
    index('mail_items_org_waiting_arrived_idx')
      .on(t.organizationId, t.arrivedAt, t.id)
      .where(sql`${t.status} in ('pending', 'notified')`),
    // Items logged without a recipient (decision 041): the desk's "Needs a recipient" list reads
    // them in its order from this index alone; they are few, and leave it once resolved.
    index('mail_items_org_needs_recipient_idx')
      .on(t.organizationId, t.arrivedAt, t.id)
      .where(sql`${t.status} = 'needs_recipient'`),
    // An item waiting for its recipient has none; resolving it sets both in one write.
    check('mail_items_needs_recipient_check', sql`${t.status} <> 'needs_recipient' or ${t.recipientId} is null`),
  ],
);

/**
 * Tracking numbers a recipient told the desk to expect (decision 033). `match_key` is the number
 * upper-cased without spaces or dashes (contract/tracking.ts, trackingKey): the desk's intake of
 * an item with that key fills in the recipient and marks the item expected. Open (unmatched)
 * keys are unique in the organization, so one scan can only mean one recipient.
 */
export const expectedPackages = pgTable(
  'expected_packages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Cascade: a recipient's erasure (decision 015) removes what they expected. */
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => recipients.id, { onDelete: 'cascade' }),
    /** As the recipient typed or pasted it. */
    trackingNumber: varchar('tracking_number', { length: 255 }).notNull(),
    matchKey: varchar('match_key', { length: 255 }).notNull(),
    carrier: varchar('carrier', { length: 100 }),
    label: varchar('label', { length: 255 }),
    createdAt: createdAt(),
    matchedItemId: uuid('matched_item_id').references((): AnyPgColumn => mailItems.id, { onDelete: 'set null' }),
    matchedAt: ts('matched_at'),
  },
  (t) => [
    // The intake's and the desk's match probe this index by (organization, match key); several
    // recipients may expect one number, each once (decision 047: the desk offers them all).
    uniqueIndex('expected_packages_org_open_key_recipient_idx')
      .on(t.organizationId, t.matchKey, t.recipientId)
      .where(sql`${t.matchedAt} is null`),
    // A recipient's list (and the cap on open ones), newest first.
    index('expected_packages_recipient_org_idx').on(t.recipientId, t.organizationId, t.createdAt),
    // A deleted item finds the expected package that named it (on delete set null).
    index('expected_packages_matched_item_idx')
      .on(t.matchedItemId)
      .where(sql`${t.matchedItemId} is not null`),
  ],
);

/**
 * How many mail items an organization holds in each status, kept by triggers on mail_items
 * (migration 0018: every insert, status change and delete, whoever writes it), so that list
 * totals and the dashboard's figures are a few rows' sum instead of a count over every item
 * (decision 021). Split in shards by the writing connection: concurrent intakes of one
 * organization add to different rows instead of queueing for one row's lock.
 */
export const mailItemCounts = pgTable(
  'mail_item_counts',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 50 }).notNull(),
    shard: integer('shard').notNull(),
    /** May go below zero in one shard (an item logged on one connection, handed over on another). */
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.status, t.shard] })],
);

/**
 * How many times each organization's cached data has changed (migration 0027, decision 037): kept
 * by statement triggers on every table an instance's caches are built from, inside the writing
 * transaction, whoever writes. A cached reply is served only while the sum of its organization's
 * shards is the sum it was loaded at, and the request reads that sum in the same round trip as its
 * session, so any instance's next request sees a committed write. Sharded by the writing
 * connection like mail_item_counts, so concurrent writers of one organization do not queue on one row.
 */
export const organizationDataVersions = pgTable(
  'organization_data_versions',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    shard: integer('shard').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.shard] })],
);

/**
 * Mail items by arrival, in 15-minute buckets, kept by triggers on mail_items (migration 0021,
 * decision 027) like mail_item_counts: "today's mail" sums the buckets since the local midnight
 * (every timezone's offset is a multiple of 15 minutes) instead of counting the day's items,
 * thousands on a busy desk. Sharded the same way, so that concurrent intakes do not queue on one row.
 */
export const mailItemArrivals = pgTable(
  'mail_item_arrivals',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The start of the 15 minutes (UTC) the items arrived in. */
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    shard: integer('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.bucket, t.shard] })],
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
  (t) => [
    index('mail_item_history_org_item_idx').on(t.organizationId, t.mailItemId, t.seq),
    // The month's package usage is the count of 'created' rows since the month began: history
    // outlives deleted items, and counting needs no shared counter row that every intake locks.
    index('mail_item_history_org_created_idx')
      .on(t.organizationId, t.createdAt)
      .where(sql`${t.action} = 'created'`),
  ],
);

/**
 * Append-only record of administration: who invited, removed, changed a role or a setting, and
 * when, with the values before and after. organization_id is null for platform-wide changes made
 * by a super admin (e.g. granting super admin to a user).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Orders entries written in one transaction (they share created_at). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** e.g. 'invitation.sent', 'member.role_changed', 'settings.updated'. */
    action: varchar('action', { length: 64 }).notNull(),
    targetType: varchar('target_type', { length: 32 }),
    targetId: varchar('target_id', { length: 64 }),
    /** What the target was called when it happened (an email, a name): it outlives the target. */
    targetLabel: varchar('target_label', { length: 255 }),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_org_seq_idx').on(t.organizationId, t.seq)],
);

/**
 * As stored: the secrets (password, authToken, webhookSecret) are encrypted with SECRETS_KEY
 * (lib/secrets.ts, 'enc:v1:...' strings) and never leave the server in clear. API keys are not
 * here: they live hashed in api_keys.
 */
export type IntegrationConfig = {
  webhookUrl?: string;
  /** Signs webhook deliveries (Standard Webhooks, 'whsec_...'); encrypted. */
  webhookSecret?: string;
  /** Which mail item events a webhook receives; all when absent. */
  webhookEvents?: string[];
  emailSettings?: {
    smtpHost?: string;
    smtpPort?: number;
    username?: string;
    password?: string;
    fromAddress?: string;
    secure?: boolean;
  };
  smsSettings?: { accountSid?: string; authToken?: string; fromNumber?: string; baseUrl?: string };
  /**
   * A Microsoft Teams channel (decision 065): its Workflows webhook URL, encrypted (the URL's `sig`
   * lets anyone who has it post to the channel), and the mailroom whose items it announces (absent:
   * every mailroom).
   */
  teamsSettings?: { webhookUrl?: string; mailroomId?: string | null };
  /**
   * A Slack workspace (decision 064): the bot token (encrypted), the staff channel the admin
   * picked, and who the token is, as auth.test answered when it was saved.
   */
  slackSettings?: {
    botToken?: string;
    staffChannelId?: string;
    staffChannelName?: string;
    teamId?: string;
    teamName?: string;
    botUserId?: string;
  };
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
    /**
     * Why the integration cannot send until an admin acts (a revoked Slack token): its messages
     * are skipped with this reason instead of tried; saving it again with a working token clears it.
     */
    attentionReason: text('attention_reason'),
    attentionAt: ts('attention_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('integrations_org_idx').on(t.organizationId, t.type)],
);

/**
 * API keys of an organization's 'api' integration: the key is shown once, only its SHA-256 is
 * kept. A key authenticates the public REST API for that organization only, as a member.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 255 }).notNull(),
    /** The first characters of the key ('pk_live_ab12'), to tell keys apart in lists. */
    prefix: varchar('prefix', { length: 32 }).notNull(),
    keyHash: varchar('key_hash', { length: 64 }).notNull().unique(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [index('api_keys_org_idx').on(t.organizationId, t.integrationId)],
);

/**
 * The notification queue (an outbox): every message to send is a row, written in the same
 * transaction as the change that caused it. 'event' rows (a mail item was logged, notified,
 * delivered, returned or deleted; a reminder is due) are fanned out by the worker into one row
 * per message (email, sms, webhook), each retried with backoff until sent or failed.
 */
export const notificationJobs = pgTable(
  'notification_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null for the platform's own messages to a user (sign-in links, account notices: decision 054). */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    /** 'event' (to fan out), 'email', 'sms', 'webhook' or 'slack'. */
    channel: varchar('channel', { length: 16 }).notNull(),
    /** e.g. 'mail_item.created', 'mail_item.notified', 'mail_item.delivered', 'mail_item.reminder', 'test'. */
    event: varchar('event', { length: 64 }).notNull(),
    /** No foreign key: the messages about an item outlive it, like its history. */
    mailItemId: uuid('mail_item_id'),
    recipientId: uuid('recipient_id'),
    integrationId: uuid('integration_id').references(() => integrations.id, { onDelete: 'set null' }),
    /** The event job a message was fanned out from. */
    parentId: uuid('parent_id'),
    /** Email address, phone number or URL the message goes to. */
    destination: varchar('destination', { length: 2048 }),
    /** What the sender needs that the database may no longer hold (e.g. a deleted item's snapshot). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** queued, sending, sent, failed, skipped, done (event rows once fanned out). */
    status: varchar('status', { length: 16 }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(13),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    /** A worker holding the job (status 'sending') until then; past it another may take it. */
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    /** Why nothing was sent (e.g. 'The recipient has no email address'). */
    skipReason: text('skip_reason'),
    responseStatus: integer('response_status'),
    latencyMs: integer('latency_ms'),
    /** The provider's id of the accepted message (SMTP Message-ID, Twilio SID). */
    providerId: varchar('provider_id', { length: 255 }),
    /** At most one job per key (e.g. one reminder per item and day). */
    dedupeKey: varchar('dedupe_key', { length: 255 }).unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    // The worker's claim: due jobs, oldest first.
    index('notification_jobs_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    // Retention deletes finished jobs by age: rows arrive in time order, so a BRIN index finds old
    // ranges at almost no cost to the writes.
    index('notification_jobs_created_brin_idx').using('brin', t.createdAt),
    // The sweep that gives back jobs whose worker's lease ran out.
    index('notification_jobs_leased_idx')
      .on(t.lockedUntil)
      .where(sql`${t.status} = 'sending'`),
    index('notification_jobs_item_idx').on(t.organizationId, t.mailItemId, t.createdAt),
    index('notification_jobs_integration_idx').on(t.organizationId, t.integrationId, t.createdAt),
  ],
);

export const DEFAULT_SETTINGS = {
  packageTypes: ['package', 'letter', 'certified_mail', 'express', 'fragile'],
  packageSizes: ['small', 'medium', 'large', 'extra_large'],
  courierCompanies: ['FedEx', 'UPS', 'DHL', 'USPS', 'Amazon', 'Other'],
  customStatuses: ['pending', 'notified', 'delivered', 'returned'],
  allowEditAfterDelivery: false,
  requirePhotoUpload: false,
  autoNotifyRecipients: true,
  sendReminders: true,
  reminderAfterDays: 3,
  pickupInstructions: null as string | null,
  /** New organizations sign at every hand-over (decision 053); an admin may turn it off. */
  handoverRequiresSignature: true,
  handoverRequiresPhoto: false,
  labelMatchThreshold: 80,
  longestHoldDays: 30,
  defaultLanguage: 'en' as Language,
};

export const organizationSettings = pgTable(
  'organization_settings',
  {
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
    /** A reminder goes to the recipient of an item waiting longer than reminderAfterDays (at most daily). */
    sendReminders: boolean('send_reminders').notNull().default(true),
    reminderAfterDays: integer('reminder_after_days').notNull().default(3),
    /** Pickup hours or a note, quoted in the arrival message. */
    pickupInstructions: text('pickup_instructions'),
    /** What a hand-over needs (decision 031): a signature drawn at the desk, a photo of the collector. */
    handoverRequiresSignature: boolean('handover_requires_signature')
      .notNull()
      .default(DEFAULT_SETTINGS.handoverRequiresSignature),
    handoverRequiresPhoto: boolean('handover_requires_photo').notNull().default(false),
    /**
     * Label reading (issue 28): the confidence (percent, 50-100) above which the best recipient match
     * of a label fills in the recipient; below it the clerk picks from the candidates.
     */
    labelMatchThreshold: integer('label_match_threshold').notNull().default(80),
    /**
     * The longest an item is held at its recipient's request, in days from the day it was first
     * held (decision 052): renewing a hold never goes past it.
     */
    longestHoldDays: integer('longest_hold_days').notNull().default(DEFAULT_SETTINGS.longestHoldDays),
    /** The language of messages to recipients who have none of their own (migration 0046, decision 066). */
    defaultLanguage: varchar('default_language', { length: 16 }).$type<Language>().notNull().default('en'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('organization_settings_label_match_threshold_range', sql`${t.labelMatchThreshold} between 50 and 100`),
    check('organization_settings_longest_hold_days_range', sql`${t.longestHoldDays} between 1 and 365`),
  ],
);

/**
 * The platform's own log (the super admin console's System Logs): operators' changes, repeated
 * failed sign-ins and refused payment webhooks. Not a tenant table: no organization owns an
 * entry, and only super admins read it. The actor's email is kept beside the id so an entry
 * still names who acted after the account is gone.
 */
/** The text System Logs' search matches: who, what and whom. */
export const PLATFORM_LOG_SEARCH_SQL = sql.raw(
  `lower(coalesce(actor_email, '') || ' ' || action || ' ' || coalesce(target_label, ''))`,
);

export const platformLog = pgTable(
  'platform_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Orders entries written in one transaction (they share created_at). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    /** 'super_admin', 'sign_in' or 'webhook'. */
    kind: varchar('kind', { length: 16 }).notNull(),
    action: varchar('action', { length: 64 }).notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: varchar('actor_email', { length: 255 }),
    targetType: varchar('target_type', { length: 32 }),
    targetId: varchar('target_id', { length: 64 }),
    targetLabel: varchar('target_label', { length: 255 }),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('platform_log_seq_idx').on(t.seq),
    index('platform_log_kind_seq_idx').on(t.kind, t.seq),
    // System Logs' search: the same expression as the repository's.
    index('platform_log_search_trgm_idx').using('gin', sql`(${PLATFORM_LOG_SEARCH_SQL}) gin_trgm_ops`),
  ],
);

/**
 * Idempotency keys of the desk's writes (decision 044): the first answer of an intake, edit or
 * hand-over sent with an `Idempotency-Key`, written in the same transaction as the write, so the
 * same key again replays it instead of writing twice. Kept 24 hours (housekeeping purges them).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /**
     * Who sent the key (decision 049): 'user:<id>' or 'api_key:<id>'. Another member's or
     * integration's same key is a request of its own. '' for keys stored before migration 0031.
     */
    caller: varchar('caller', { length: 80 }).notNull(),
    key: varchar('key', { length: 255 }).notNull(),
    /** sha256 of the method, route, parameters and body: the same key with another request is refused. */
    requestHash: varchar('request_hash', { length: 64 }).notNull(),
    statusCode: integer('status_code').notNull(),
    response: jsonb('response').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.caller, t.key] }),
    // The purge reads the expired keys of every organization by age.
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

/**
 * Single sign-on (issue 43, decision 059): an organization's one identity provider, OpenID Connect
 * or SAML 2.0. Only addresses of the organization's verified domains (organization_domains) are
 * signed in through it. The OIDC client secret is encrypted with SECRETS_KEY like the integrations'
 * secrets (lib/secrets.ts, 'enc:v1:...') and never leaves the server: the API says only whether one
 * is set. The SAML columns hold the provider's metadata as given (by URL or pasted) and what was
 * read from it: its entity id, its sign-in URL and its signing certificates (PEM bodies).
 */
export const ssoConnections = pgTable(
  'sso_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** 'oidc' or 'saml'. */
    protocol: varchar('protocol', { length: 8 }).notNull(),
    /** Off: nobody is offered or signed in through it (the admin's settings stay). */
    enabled: boolean('enabled').notNull().default(false),
    /** The provider's issuer, or its discovery document's URL (…/.well-known/openid-configuration). */
    oidcIssuer: varchar('oidc_issuer', { length: 2048 }),
    oidcClientId: varchar('oidc_client_id', { length: 255 }),
    /** Encrypted with SECRETS_KEY ('enc:v1:...'). */
    oidcClientSecret: text('oidc_client_secret'),
    /** Where the SAML provider's metadata is fetched from, when given by URL. */
    idpMetadataUrl: varchar('idp_metadata_url', { length: 2048 }),
    idpMetadataXml: text('idp_metadata_xml'),
    idpEntityId: varchar('idp_entity_id', { length: 1024 }),
    idpSsoUrl: varchar('idp_sso_url', { length: 2048 }),
    /** The provider's signing certificates (base64 DER, as in its metadata): a rollover lists two. */
    idpCertificates: text('idp_certificates')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** SAML responses nobody asked for (provider-started sign-in) are refused unless this is on. */
    allowIdpInitiated: boolean('allow_idp_initiated').notNull().default(false),
    /** The role of a member created by a first sign-in. */
    defaultRole: memberRole('default_role').notNull().default('member'),
    /** A claim (OIDC) or attribute (SAML) that makes the member an admin when it holds adminValue. */
    adminClaim: varchar('admin_claim', { length: 255 }),
    adminValue: varchar('admin_value', { length: 255 }),
    /** Passwords are refused to members of the verified domains, except the break-glass admin's. */
    requireSso: boolean('require_sso').notNull().default(false),
    breakGlassUserId: uuid('break_glass_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One provider per organization; sign-in finds it by the organization of the address's domain.
    uniqueIndex('sso_connections_org_idx').on(t.organizationId),
    check('sso_connections_protocol_check', sql`${t.protocol} in ('oidc', 'saml')`),
    check('sso_connections_admin_mapping_check', sql`(${t.adminClaim} is null) = (${t.adminValue} is null)`),
  ],
);

/**
 * A sign-in sent to the provider and not yet come back: what the answer is checked against (the
 * state, the OIDC nonce and PKCE verifier, the SAML request id). Single use (used_at, set by the
 * statement that takes it) and short-lived: a replayed or late answer finds nothing to complete.
 */
export const ssoSignInRequests = pgTable(
  'sso_sign_in_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => ssoConnections.id, { onDelete: 'cascade' }),
    /** SHA-256 of the state sent to the provider (OIDC state, SAML RelayState). */
    stateHash: varchar('state_hash', { length: 64 }).notNull(),
    nonce: varchar('nonce', { length: 128 }),
    codeVerifier: varchar('code_verifier', { length: 128 }),
    /** The ID of a SAML AuthnRequest: the response's InResponseTo must name it. */
    samlRequestId: varchar('saml_request_id', { length: 255 }),
    emailHint: varchar('email_hint', { length: 255 }),
    /** An invitation accepted through the provider: its token (as emailed), checked on return. */
    invitationToken: varchar('invitation_token', { length: 128 }),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sso_sign_in_requests_state_idx').on(t.stateHash),
    // Housekeeping purges by age.
    index('sso_sign_in_requests_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Who a provider says a user is: its subject (OIDC `sub`, SAML NameID) under one connection. A
 * second sign-in finds the user by it, not by the email (an address can change hands).
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => ssoConnections.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: varchar('subject', { length: 512 }).notNull(),
    /** The address the provider gave at the last sign-in. */
    email: varchar('email', { length: 255 }).notNull(),
    createdAt: createdAt(),
    lastSignInAt: ts('last_sign_in_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_identities_connection_subject_idx').on(t.connectionId, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/**
 * Assertions and responses already consumed (SAML assertion and response ids, OIDC codes' hashes):
 * the primary key refuses the same one twice. Kept until the assertion itself would have expired.
 */
export const ssoUsedAssertions = pgTable(
  'sso_used_assertions',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => ssoConnections.id, { onDelete: 'cascade' }),
    assertionId: varchar('assertion_id', { length: 512 }).notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.assertionId] }),
    index('sso_used_assertions_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Where an organization's resident roster comes from (issue 43 section 3, decision 061): a CSV
 * fetched over HTTPS or SFTP on a schedule, read with a saved column mapping. `secret` is the
 * HTTPS header's value, or the SFTP password or private key, encrypted like integration secrets
 * (lib/secrets.ts) and never replied. `next_run_at` is when the schedule is next due; an instance
 * that takes the run sets `running_until` (a lease) so no other instance takes it meanwhile.
 */
export const rosterSources = pgTable(
  'roster_sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 8 }).$type<'https' | 'sftp'>().notNull(),
    url: text('url'),
    /** The HTTPS header that carries `secret` (e.g. Authorization); null: no header. */
    headerName: varchar('header_name', { length: 100 }),
    host: varchar('host', { length: 253 }),
    port: integer('port'),
    path: text('path'),
    username: varchar('username', { length: 100 }),
    /** 'password' or 'private_key' for SFTP; null for HTTPS. */
    sftpAuth: varchar('sftp_auth', { length: 12 }).$type<'password' | 'private_key'>(),
    secret: text('secret'),
    /**
     * The SFTP server's host key fingerprint (`SHA256:…`, as ssh-keygen -lf prints it): given by
     * the admin or kept from the first connection; a server presenting another key is refused.
     */
    sftpHostKey: varchar('sftp_host_key', { length: 100 }),
    /** Field -> the CSV's column header (the CSV import's fields, plus the id column). */
    mapping: jsonb('mapping').$type<Record<string, string>>().notNull(),
    /** 'hourly', 'daily', or a five-field cron expression (croner), in UTC. */
    schedule: varchar('schedule', { length: 100 }).notNull(),
    graceDays: integer('grace_days').notNull().default(14),
    /** The share (percent) of the roster a run may mark as left before it waits for approval. */
    approvalShare: integer('approval_share').notNull().default(10),
    enabled: boolean('enabled').notNull().default(true),
    nextRunAt: ts('next_run_at'),
    runningUntil: ts('running_until'),
    /** Failed fetches in a row of the current scheduled run (retried 3 times, then the admins hear). */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('roster_sources_org_id_idx').on(t.organizationId, t.id),
    // The schedule's scan: due sources of every organization.
    index('roster_sources_due_idx')
      .on(t.nextRunAt)
      .where(sql`${t.enabled}`),
    check('roster_sources_kind_check', sql`${t.kind} in ('https', 'sftp')`),
    check('roster_sources_share_check', sql`${t.approvalShare} between 0 and 100`),
    check('roster_sources_grace_check', sql`${t.graceDays} between 0 and 365`),
  ],
);

/**
 * One run of a roster source: its counts, its errors, and (while it waits for an admin) the
 * preview of what it would change, which approving applies.
 */
export const rosterRuns = pgTable(
  'roster_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    sourceId: uuid('source_id')
      .notNull()
      .references(() => rosterSources.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 20 })
      .$type<'fetched' | 'awaiting_approval' | 'applied' | 'failed' | 'rejected'>()
      .notNull(),
    trigger: varchar('trigger', { length: 10 }).$type<'schedule' | 'manual'>().notNull(),
    attempt: integer('attempt').notNull().default(1),
    added: integer('added').notNull().default(0),
    changed: integer('changed').notNull().default(0),
    moved: integer('moved').notNull().default(0),
    left: integer('left').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    errorText: text('error_text'),
    /** Row errors: line and messages. */
    rowErrors: jsonb('row_errors').$type<Array<{ line: number; messages: string[] }>>(),
    /** The diff while it waits for approval; cleared once applied or rejected. */
    preview: jsonb('preview').$type<Record<string, unknown>>(),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    startedAt: ts('started_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('roster_runs_org_id_idx').on(t.organizationId, t.id),
    index('roster_runs_org_source_started_idx').on(t.organizationId, t.sourceId, t.startedAt),
    check(
      'roster_runs_status_check',
      sql`${t.status} in ('fetched', 'awaiting_approval', 'applied', 'failed', 'rejected')`,
    ),
  ],
);

/**
 * SCIM 2.0 provisioning (issue 43 §2, decision 060): the bearer tokens an organization's identity
 * provider calls /scim/v2 with, kept as their SHA-256 only (the token is shown once). Revoked
 * ones stay listed; the lookup is by hash across organizations (the token names its organization).
 */
export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    /** The first characters of the token, to tell tokens apart in the list. */
    prefix: varchar('prefix', { length: 16 }).notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('scim_tokens_token_hash_idx').on(t.tokenHash),
    index('scim_tokens_org_created_idx').on(t.organizationId, t.createdAt),
  ],
);

/**
 * Every authenticated SCIM call (decision 060, migration 0042): who called (the token), what, and
 * how it ended, for the admins' "Recent calls" in Settings → Directory; purged after 30 days. The
 * path has no query: a filter's value is a userName or email, so only `attribute op` is kept.
 */
export const scimRequests = pgTable(
  'scim_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tokenId: uuid('token_id').references(() => scimTokens.id, { onDelete: 'set null' }),
    method: varchar('method', { length: 8 }).notNull(),
    path: varchar('path', { length: 200 }).notNull(),
    /** The filter's attribute and operator (`userName eq`), never its value. */
    filter: varchar('filter', { length: 64 }),
    status: integer('status').notNull(),
    /** The User or Group the call named or created (an unknown id as sent, cut to 64 characters). */
    resourceId: varchar('resource_id', { length: 64 }),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('scim_requests_org_created_idx').on(t.organizationId, t.createdAt.desc()),
    index('scim_requests_created_idx').on(t.createdAt),
  ],
);

/** A SCIM group: a department (offices) or a household (residences) whose members are recipients. */
export const scimGroups = pgTable(
  'scim_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    displayName: varchar('display_name', { length: 255 }).notNull(),
    externalId: varchar('external_id', { length: 255 }),
    kind: varchar('kind', { length: 12 }).$type<'department' | 'household'>().notNull().default('department'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('scim_groups_kind_check', sql`${t.kind} in ('department', 'household')`),
    uniqueIndex('scim_groups_org_display_name_idx').on(t.organizationId, sql`lower(${t.displayName})`),
    uniqueIndex('scim_groups_org_external_id_idx')
      .on(t.organizationId, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);

export const scimGroupMembers = pgTable(
  'scim_group_members',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => scimGroups.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => recipients.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.groupId, t.recipientId] }),
    index('scim_group_members_org_recipient_idx').on(t.organizationId, t.recipientId),
  ],
);
