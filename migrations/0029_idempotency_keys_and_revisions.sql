-- Issue 29 (decision 044). A mail item's revision: 1 at intake, one more with every write of it,
-- named by a clerk's edit (If-Match) so a later write cannot silently undo an earlier one. A
-- constant default: the column is added without rewriting the table.
ALTER TABLE "mail_items" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- The first answer of a write sent with an Idempotency-Key, written in the write's transaction.
-- Row-level security is applied from the catalogue at start (decision 016). No data version
-- trigger: no cached reply is built from it.
CREATE TABLE "idempotency_keys" (
	"organization_id" uuid NOT NULL,
	"key" varchar(255) NOT NULL,
	"request_hash" varchar(64) NOT NULL,
	"status_code" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_organization_id_key_pk" PRIMARY KEY("organization_id","key")
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");
