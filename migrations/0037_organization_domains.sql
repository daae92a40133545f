-- Issue 43, decision 058: an organization's email domains. A domain may be claimed by several
-- organizations while pending and verified by at most one (the partial unique index).
CREATE TABLE "organization_domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"domain" varchar(253) NOT NULL,
	"verification_token" varchar(64) NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"verified_at" timestamp with time zone,
	"verified_by" varchar(64),
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_domains_status_check" CHECK ("organization_domains"."status" in ('pending', 'verified')),
	CONSTRAINT "organization_domains_verified_check" CHECK (("organization_domains"."status" = 'verified') = ("organization_domains"."verified_at" is not null and "organization_domains"."verified_by" is not null))
);
--> statement-breakpoint
ALTER TABLE "organization_domains" ADD CONSTRAINT "organization_domains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_domains" ADD CONSTRAINT "organization_domains_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_domains_org_id_idx" ON "organization_domains" USING btree ("organization_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_domains_org_domain_idx" ON "organization_domains" USING btree ("organization_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_domains_verified_domain_idx" ON "organization_domains" USING btree ("domain") WHERE "organization_domains"."status" = 'verified';
