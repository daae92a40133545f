-- Issue 43: recipients kept by the organization's directory. `managed_by` says which feed owns the
-- recipient (SCIM provisioning or the scheduled roster import; null: typed or imported by hand), and
-- the desk may not edit the fields that feed owns. `external_id` is the feed's own key for the
-- person (SCIM's externalId or the roster's id column), unique per organization and feed.
-- `left_at` is when the feed said the person left (deactivated by SCIM or gone from the roster):
-- the desk shows their waiting items as "left". `preferred_language` is SCIM's preferredLanguage
-- (a BCP 47 tag), stored as sent; issue 44 gives it its use.
ALTER TABLE "recipients" ADD COLUMN "managed_by" varchar(10);--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "external_id" varchar(255);--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "left_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "preferred_language" varchar(35);--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_managed_by_check" CHECK ("recipients"."managed_by" in ('scim', 'roster'));--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_external_id_managed_check" CHECK ("recipients"."external_id" is null or "recipients"."managed_by" is not null);--> statement-breakpoint
CREATE UNIQUE INDEX "recipients_org_feed_external_id_idx" ON "recipients" USING btree ("organization_id","managed_by","external_id") WHERE "recipients"."external_id" is not null;
