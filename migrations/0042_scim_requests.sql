-- Issue 43 §2, decision 060: every SCIM call recorded. One row per authenticated request to
-- /scim/v2 (reads too), written after the reply; shown to admins in Settings → Directory and
-- purged after 30 days by the hourly housekeeping. The path is kept without its query: a filter's
-- value is a userName or an email (personal data), so only the filter's attribute and operator
-- are kept (`userName eq`). Unauthenticated 401s stay in the platform log (they have no
-- organization). Row-level security is applied from the catalogue on start (organization_id).
CREATE TABLE "scim_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"token_id" uuid,
	"method" varchar(8) NOT NULL,
	"path" varchar(200) NOT NULL,
	"filter" varchar(64),
	"status" integer NOT NULL,
	"resource_id" varchar(64),
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scim_requests" ADD CONSTRAINT "scim_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_requests" ADD CONSTRAINT "scim_requests_token_id_scim_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."scim_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scim_requests_org_created_idx" ON "scim_requests" USING btree ("organization_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "scim_requests_created_idx" ON "scim_requests" USING btree ("created_at");
--> statement-breakpoint
-- Groups change recipients (decision 060): a department group's name is its members' department
-- unless their SCIM user carries its own; this names the group that set it, so that leaving the
-- group clears only what the group set.
ALTER TABLE "recipients" ADD COLUMN "department_group_id" uuid;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_department_group_id_scim_groups_id_fk" FOREIGN KEY ("department_group_id") REFERENCES "public"."scim_groups"("id") ON DELETE set null ON UPDATE no action;
