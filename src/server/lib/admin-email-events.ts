/**
 * The outbox events of the emails to an organization's admins about its account (not about mail
 * items). Billing queues the payment-failed one inside its webhook's transaction, notifications
 * queues the trial-ending one and sends both: the names sit on this floor, below both modules, so
 * billing needs nothing from notifications (which reads mail items, which check billing).
 */
export const ADMIN_EMAIL_EVENTS = {
  trialEnding: 'billing.trial_ending',
  paymentFailed: 'billing.payment_failed',
} as const;
