import { z } from 'zod';
import { Timestamp } from './common';
import { Organization, PlanType, SubscriptionStatus } from './organizations';

/**
 * Plans, seats and payments: the one plan table that checkout, the billing screens, the landing
 * page's pricing and the server's limits all read (spec §9, spec-decisions "Billing"). Money is in
 * integer cents.
 */

export const PAID_PLAN_TYPES = ['starter', 'professional', 'enterprise'] as const;
export const PaidPlanType = z.enum(PAID_PLAN_TYPES, { message: 'Choose Starter, Professional or Enterprise' });
export type PaidPlanType = z.infer<typeof PaidPlanType>;

export const Plan = z.object({
  id: PaidPlanType,
  name: z.string(),
  description: z.string(),
  /** Cents per user (seat) per month. */
  pricePerUser: z.number().int(),
  minUsers: z.number().int(),
  maxUsers: z.number().int(),
  /** Packages a month; -1 unlimited. */
  maxPackagesPerMonth: z.number().int(),
  features: z.array(z.string()),
  mostPopular: z.boolean(),
});
export type Plan = z.infer<typeof Plan>;

export const PLANS: Record<PaidPlanType, Plan> = {
  starter: {
    id: 'starter',
    name: 'Starter',
    description: 'For a small front desk',
    pricePerUser: 2500,
    minUsers: 1,
    maxUsers: 3,
    maxPackagesPerMonth: 1000,
    features: ['Up to 3 users', '1,000 packages a month', 'Email notifications', 'Basic analytics', 'Photo storage'],
    mostPopular: false,
  },
  professional: {
    id: 'professional',
    name: 'Professional',
    description: 'For a busy mailroom',
    pricePerUser: 3500,
    minUsers: 1,
    maxUsers: 10,
    maxPackagesPerMonth: -1,
    features: [
      'Up to 10 users',
      'Unlimited packages',
      'Email and SMS notifications',
      'Advanced analytics',
      'API and webhook integrations',
      'Priority support',
    ],
    mostPopular: true,
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    description: 'For campuses and portfolios',
    pricePerUser: 4500,
    minUsers: 10,
    maxUsers: 1000,
    maxPackagesPerMonth: -1,
    features: [
      '10 to 1,000 users',
      'Unlimited packages',
      'Everything in Professional',
      'Custom integrations',
      'Dedicated support',
      'Service level agreement',
    ],
    mostPopular: false,
  },
};

/** The plans in the order they are shown. */
export const PLAN_LIST: Plan[] = PAID_PLAN_TYPES.map((id) => PLANS[id]);

/** A new organization's trial (spec §9, spec-decisions "Billing"). */
export const TRIAL_PLAN = { days: 7, seats: 5, maxPackagesPerMonth: 500 } as const;
/** Yearly billing shows this discount; totals stay monthly (spec §4: display only). */
export const YEARLY_DISCOUNT = 0.2;
/** Checkout starts here (spec §4). */
export const CHECKOUT_DEFAULTS = { planType: 'professional', users: 5, method: 'card' } as const;
export const CURRENCY = 'USD';

export const monthlyTotalCents = (planType: PaidPlanType, users: number) => PLANS[planType].pricePerUser * users;

/** "$35", "$1,234.50": cents as dollars, without cents when whole. */
export function formatCents(cents: number): string {
  const whole = cents % 100 === 0;
  return `$${(cents / 100).toLocaleString('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  })}`;
}

/** Days left of a trial ending at `trialEndDate`, rounded up; 0 once it has ended (spec §9). */
export function trialDaysLeft(trialEndDate: string | Date | null, now = new Date()): number {
  if (!trialEndDate) return 0;
  const ms = new Date(trialEndDate).getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / 86_400_000);
}

export const BILLING_MESSAGES = {
  selectOrganization: 'Please select an organization first.',
  checkoutFailed: 'Failed to create checkout session.',
  noSubscriptionTitle: 'No Active Subscription',
  noSubscription: 'Subscribe to a plan first to manage your subscription',
  demoEnvironmentTitle: 'Demo Environment',
  demoEnvironment:
    'This organization paid through the demo payment provider: there is no real subscription to manage. Set the Stripe keys to take real payments.',
  portalFailed: 'Failed to open subscription management portal',
  portalUnavailable: 'Customer portal temporarily unavailable',
  minimumUsers: (n: number) => `Minimum ${n} users required`,
  seatsOutOfRange: (plan: Plan) =>
    `${plan.name} is for ${plan.minUsers} to ${plan.maxUsers.toLocaleString('en-US')} users`,
  seatsBelowMembers: (members: number) =>
    `This organization has ${members} members: choose at least ${members} users, or remove members first`,
  amountMismatch: 'The amount does not match the plan and number of users',
  paymentRequired: 'No verified payment for this plan and number of users',
  paymentNotCompleted: 'The payment was not completed',
  providerDown: 'The payment provider could not be reached. Nothing was charged; please try again in a few minutes.',
  orderNotFound: 'Order not found',
  checkoutNotFound: 'Checkout not found',
  trialEnded: "This organization's free trial has ended. An admin can choose a plan in Billing.",
  subscriptionInactive: "This organization's subscription is not active. An admin can choose a plan in Billing.",
  // Checkout toasts (spec §8)
  cardComingSoonTitle: 'Stripe Integration Coming Soon',
  cardComingSoon: 'Payment processing will be available in the next update. Your trial continues!',
  upgradeFailedTitle: 'Error',
  upgradeFailed: 'Failed to process upgrade. Please try again.',
  paidButNotUpgradedTitle: 'Payment Successful, but...',
  paidButNotUpgraded:
    'Payment completed successfully, but there was an issue updating your plan. Please contact support.',
  paymentFailedTitle: 'Payment Failed',
  paymentFailed: 'There was an issue processing your payment. Please try again.',
  paymentSucceededTitle: 'Payment Successful!',
  paymentSucceeded: (planName: string) => `Your organization has been upgraded to ${planName} plan.`,
  checkoutFooter: 'Cancel anytime. No setup fees. Secure payment processing by a card payment provider.',
  trialNoteTitle: '7-Day Free Trial',
  trialNote: "You won't be charged until after the trial period ends",
  // Payment choices that are not set up on this server (decision 028)
  cardUnavailable: 'Card payments are not set up on this server. Nothing was charged.',
  paypalUnavailable: 'PayPal payments are not set up on this server. Nothing was charged.',
  demoUnavailable:
    'The demo payment provider is switched off on this server, so this demo checkout cannot be completed. Nothing was charged; start again from checkout.',
  demoCheckoutExpired: 'This demo checkout has expired. Nothing was charged; start again from checkout.',
  noPaymentMethodTitle: 'Online payment is not set up yet',
  noPaymentMethod: (salesEmail: string) =>
    `This server does not take card or PayPal payments yet. Contact ${salesEmail} to choose a plan.`,
  tooManyBillingRequests:
    'Too many payment requests for this organization. Nothing more was charged; please wait a minute and try again.',
  tooManyRefusedBillingRequests:
    'Too many billing requests that your role does not allow. Ask an admin of the organization, or try again later.',
} as const;

/** Which payment provider a purchase went through; 'demo' is the local simulated one (no keys set). */
export const PAYMENT_PROVIDERS = ['stripe', 'paypal', 'demo'] as const;
export const PaymentProvider = z.enum(PAYMENT_PROVIDERS);
export type PaymentProvider = z.infer<typeof PaymentProvider>;

/** A seat count as the forms and calls send it. */
const seatCount = z.coerce
  .number({ message: 'Number of users must be a number' })
  .int('Number of users must be a whole number')
  .min(1, 'Number of users must be at least 1')
  .max(100_000, 'Number of users is too large');

/**
 * Whether `users` seats of the plan may be bought by an organization with `members` members:
 * null when they may, else the reason (the server answers it with 400).
 */
export function seatCountProblem(planType: PaidPlanType, users: number, members = 0): string | null {
  const plan = PLANS[planType];
  if (!Number.isInteger(users) || users < plan.minUsers || users > plan.maxUsers) {
    return BILLING_MESSAGES.seatsOutOfRange(plan);
  }
  if (users < members) return BILLING_MESSAGES.seatsBelowMembers(members);
  return null;
}

// ---- GET /api/plans (public)

export const PlansReply = z.object({
  plans: z.array(Plan),
  trial: z.object({ days: z.number().int(), seats: z.number().int(), maxPackagesPerMonth: z.number().int() }),
  yearlyDiscount: z.number(),
  currency: z.string(),
  /**
   * True when the local demo provider takes payments (DEMO_PAYMENTS: on by default outside
   * production without provider keys): checkout completes and nothing is charged.
   */
  demoMode: z.boolean(),
  /**
   * Who takes each payment choice: its real provider, the demo provider (demoMode), or null when
   * it is not offered on this server (its calls answer 409 payment_method_unavailable).
   */
  providers: z.object({
    card: z.enum(['stripe', 'demo']).nullable(),
    paypal: z.enum(['paypal', 'demo']).nullable(),
  }),
  /** Where the landing page's Contact Sales button writes to (SALES_EMAIL). */
  salesEmail: z.string(),
});
export type PlansReply = z.infer<typeof PlansReply>;

// ---- Licences and summary (admins)

/** GET /api/licenses/summary. */
export const LicenseSummary = z.object({
  planType: PlanType,
  subscriptionStatus: SubscriptionStatus,
  /** maxUsers; -1 unlimited. */
  seats: z.number().int(),
  seatsUsed: z.number().int(),
  /** seats - seatsUsed, never below 0 (unlimited: -1). */
  seatsAvailable: z.number().int(),
  /** Cents per seat per month of the current plan (the trial shows Professional's). */
  pricePerLicense: z.number().int(),
  /** Cents a month: seats × pricePerLicense (0 on a trial). */
  monthlyTotal: z.number().int(),
  nextBillingDate: Timestamp.nullable(),
  trialEndDate: Timestamp.nullable(),
  /** Trial days left, rounded up; 0 when ended or not on a trial. */
  daysLeft: z.number().int(),
  maxPackagesPerMonth: z.number().int(),
  packagesThisMonth: z.number().int(),
  usageResetDate: Timestamp.nullable(),
  billingCycle: z.string(),
  lastPaymentDate: Timestamp.nullable(),
  lastPaymentAmount: z.number().int().nullable(),
  /** How the current plan was paid; null on a trial. */
  provider: PaymentProvider.nullable(),
  /** The payment provider's customer id, when there is one ('demo_cus_…' for the demo provider). */
  customerId: z.string().nullable(),
  /** Whether new items, members and integrations are allowed; when not, `blockedReason` says why. */
  canWrite: z.boolean(),
  blockedReason: z.enum(['trial_expired', 'subscription_inactive']).nullable(),
  /**
   * When a card checkout started now would keep the rest of the trial: the day its first charge
   * is taken (Stripe, on a trial with at least 49 hours left). Null when the card would be charged
   * at once, or is not taken by Stripe (PayPal charges at once; the demo provider charges nothing).
   */
  cardTrialEndsAt: Timestamp.nullable(),
});
export type LicenseSummary = z.infer<typeof LicenseSummary>;

/** GET /api/licenses/active: an `organization_licenses` row (one per purchase). */
export const License = z.object({
  id: z.uuid(),
  planType: PlanType,
  quantity: z.number().int(),
  purchaseDate: Timestamp,
  startDate: Timestamp,
  /** The renewal (subscriptions) or end (one-time payments) date. */
  expirationDate: Timestamp.nullable(),
  pricePerLicense: z.number().int(),
  totalAmount: z.number().int(),
  isActive: z.boolean(),
  cancelledAt: Timestamp.nullable(),
  refundedAt: Timestamp.nullable(),
  provider: PaymentProvider,
  subscriptionId: z.string().nullable(),
});
export type License = z.infer<typeof License>;

/** GET /api/billing/payments: the organization's payments and failed charges, newest first. */
export const Payment = z.object({
  id: z.uuid(),
  provider: PaymentProvider,
  status: z.enum(['paid', 'failed']),
  /** Cents. */
  amount: z.number().int(),
  currency: z.string(),
  planType: PlanType.nullable(),
  quantity: z.number().int().nullable(),
  description: z.string(),
  /** The provider's invoice or receipt page, when it has one. */
  invoiceUrl: z.string().nullable(),
  createdAt: Timestamp,
});
export type Payment = z.infer<typeof Payment>;

// ---- Card checkout (Stripe, or the demo provider without keys)

/** POST /api/billing/create-checkout-session. */
export const CreateCheckoutSessionBody = z.object({
  planId: PaidPlanType,
  quantity: seatCount,
  customerEmail: z.email('Please enter a valid email address').max(255).optional(),
});
export type CreateCheckoutSessionBody = z.infer<typeof CreateCheckoutSessionBody>;

export const CheckoutSessionReply = z.object({
  /** Where to send the browser: Stripe Checkout, or the demo provider's page in this app. */
  url: z.string(),
  provider: z.enum(['stripe', 'demo']),
});
export type CheckoutSessionReply = z.infer<typeof CheckoutSessionReply>;

/** POST /api/billing/create-portal-session: the client may send the customer id it shows; the server uses its own. */
export const CreatePortalSessionBody = z.object({ customerId: z.string().max(255).optional() }).optional();
export const UrlReply = z.object({ url: z.string() });
export type UrlReply = z.infer<typeof UrlReply>;

/** GET /api/billing/demo-checkouts/{id}: what the demo provider's page shows. */
export const DemoCheckout = z.object({
  id: z.uuid(),
  planType: PaidPlanType,
  quantity: z.number().int(),
  /** Cents a month. */
  amount: z.number().int(),
  currency: z.string(),
  /** expired: not completed within an hour of being opened (it can no longer be completed). */
  status: z.enum(['open', 'completed', 'expired']),
  customerEmail: z.string().nullable(),
});
export type DemoCheckout = z.infer<typeof DemoCheckout>;

// ---- PayPal (or the demo provider without keys)

/** GET /api/paypal/setup. */
export const PaypalSetupReply = z.object({
  clientToken: z.string(),
  /** For PayPal's JS SDK; null in demo mode. */
  clientId: z.string().nullable(),
  demo: z.boolean(),
});
export type PaypalSetupReply = z.infer<typeof PaypalSetupReply>;

/**
 * POST /api/paypal/order. The spec's client sends amount, currency and intent; the server works
 * the amount out itself from planType and userCount and refuses (400) an amount that disagrees.
 */
export const CreatePaypalOrderBody = z.object({
  planType: PaidPlanType,
  userCount: seatCount,
  amount: z.union([z.string().max(32), z.number()]).optional(),
  currency: z.string().max(8).optional(),
  intent: z.string().max(16).optional(),
});
export type CreatePaypalOrderBody = z.infer<typeof CreatePaypalOrderBody>;

export const PaypalOrderReply = z.object({ id: z.string(), status: z.string() });
export type PaypalOrderReply = z.infer<typeof PaypalOrderReply>;

/** POST /api/paypal/order/{id}/capture and POST /api/organizations/{id}/upgrade. */
export const UpgradeBody = z.object({ planType: PaidPlanType, userCount: seatCount });
export type UpgradeBody = z.infer<typeof UpgradeBody>;

export const PaypalOrderParams = z.object({ id: z.string().min(1).max(64) });

export const CaptureReply = z.object({ id: z.string(), status: z.string(), organization: Organization });
export type CaptureReply = z.infer<typeof CaptureReply>;

/** Why an organization may not log new items, add members or integrations right now, or null when it may. */
export type WriteBlock = 'trial_expired' | 'subscription_inactive';

/**
 * The rule the server enforces (402 with this code) and the screens explain: a trial that has
 * ended, or a paid plan whose subscription is expired or cancelled. Reads always stay open.
 */
export function writeBlockOf(
  org: { subscriptionStatus: string; trialEndDate: string | Date | null },
  now = new Date(),
): WriteBlock | null {
  if (org.subscriptionStatus === 'trial') {
    return org.trialEndDate && new Date(org.trialEndDate).getTime() < now.getTime() ? 'trial_expired' : null;
  }
  return org.subscriptionStatus === 'active' ? null : 'subscription_inactive';
}
