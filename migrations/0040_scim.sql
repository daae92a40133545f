-- Issue 43 §2, decision 060: SCIM 2.0 provisioning of recipients. An organization's identity
-- provider (Entra ID, Okta) calls /scim/v2 with a bearer token kept here as its SHA-256 only;
-- revoked tokens stay listed (who made it, when it was last used). Groups are departments or
-- households whose members are recipients. A SCIM user is a recipient with managed_by = 'scim'
-- (migration 0038); `scim_user_name` is its SCIM userName, unique per organization ignoring case
-- (RFC 7643 userName is caseExact false), which is what `userName eq` looks up.
CREATE TABLE "scim_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" varchar(100) NOT NULL,
	"prefix" varchar(16) NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scim_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"display_name" varchar(255) NOT NULL,
	"external_id" varchar(255),
	"kind" varchar(12) DEFAULT 'department' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scim_groups_kind_check" CHECK ("scim_groups"."kind" in ('department', 'household'))
);
--> statement-breakpoint
CREATE TABLE "scim_group_members" (
	"organization_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scim_group_members_organization_id_group_id_recipient_id_pk" PRIMARY KEY("organization_id","group_id","recipient_id")
);
--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "scim_user_name" varchar(255);--> statement-breakpoint
ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_groups" ADD CONSTRAINT "scim_groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_group_id_scim_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."scim_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scim_tokens_token_hash_idx" ON "scim_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "scim_tokens_org_created_idx" ON "scim_tokens" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_groups_org_display_name_idx" ON "scim_groups" USING btree ("organization_id",lower("display_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "scim_groups_org_external_id_idx" ON "scim_groups" USING btree ("organization_id","external_id") WHERE "scim_groups"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "scim_group_members_org_recipient_idx" ON "scim_group_members" USING btree ("organization_id","recipient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "recipients_org_scim_user_name_idx" ON "recipients" USING btree ("organization_id",lower("scim_user_name")) WHERE "recipients"."scim_user_name" is not null;--> statement-breakpoint
CREATE INDEX "recipients_org_email_normalized_idx" ON "recipients" USING btree ("organization_id","email_normalized") WHERE "recipients"."managed_by" is null;
