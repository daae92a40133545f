import type { Db } from '../../db/client';

/**
 * A one-time payment (PayPal, or the demo provider) pays for one month; nothing renews it. Once
 * its month is over the plan expires: reads stay open, new items, members and integrations are
 * refused until an admin pays again. Stripe subscriptions are not touched: Stripe tells us their
 * state. Set-based, idempotent, safe for every instance to run (hourly housekeeping).
 */
const EXPIRE = `
  with expired as (
    update organizations o
       set subscription_status = 'expired', updated_at = now()
     where o.subscription_status = 'active'
       and o.billing_provider in ('paypal', 'demo')
       and o.next_billing_date < now()
    returning o.id, o.name, o.plan_type
  ), licences as (
    update organization_licenses l
       set is_active = false
      from expired e
     where l.organization_id = e.id and l.is_active and l.provider in ('paypal', 'demo')
  )
  insert into audit_log (organization_id, actor_id, action, target_type, target_id, target_label, before, after)
  select e.id, null, 'billing.plan_changed', 'billing', e.id::text, left(e.name, 255),
         jsonb_build_object('subscriptionStatus', 'active'),
         jsonb_build_object('subscriptionStatus', 'expired', 'reason', 'The paid month ended')
    from expired e`;

/** Answers how many organizations' plans expired now. */
export async function expireOneTimePlans(db: Db): Promise<number> {
  const { rowCount } = await db.$client.query(EXPIRE);
  return rowCount ?? 0;
}
