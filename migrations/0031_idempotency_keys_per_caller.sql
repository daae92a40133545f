-- Issue 41 item 14 (decision 049). An idempotency key belongs to the caller who sent it (a user
-- signed in, or an API key), not to the whole organization: another member's or another
-- integration's request under the same key is a request of its own, never answered with someone
-- else's reply. `caller` is 'user:<id>' or 'api_key:<id>'. Keys stored before this migration had
-- no caller: they keep '' and are still replayed to anyone of their organization until they
-- expire (24 hours), so a desk's outbox retrying across the deploy does not write twice.
ALTER TABLE "idempotency_keys" ADD COLUMN "caller" varchar(80) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "caller" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_organization_id_key_pk";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_organization_id_caller_key_pk" PRIMARY KEY("organization_id","caller","key");
