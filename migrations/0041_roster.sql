-- Issue 43 section 3, decision 061: a resident roster fetched on a schedule (HTTPS or SFTP) and
-- the record of each run. The secret is encrypted by the application (lib/secrets.ts).
CREATE TABLE "roster_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" varchar(8) NOT NULL,
	"url" text,
	"header_name" varchar(100),
	"host" varchar(253),
	"port" integer,
	"path" text,
	"username" varchar(100),
	"sftp_auth" varchar(12),
	"secret" text,
	"mapping" jsonb NOT NULL,
	"schedule" varchar(100) NOT NULL,
	"grace_days" integer DEFAULT 14 NOT NULL,
	"approval_share" integer DEFAULT 10 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_run_at" timestamp with time zone,
	"running_until" timestamp with time zone,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roster_sources_kind_check" CHECK ("roster_sources"."kind" in ('https', 'sftp')),
	CONSTRAINT "roster_sources_share_check" CHECK ("roster_sources"."approval_share" between 0 and 100),
	CONSTRAINT "roster_sources_grace_check" CHECK ("roster_sources"."grace_days" between 0 and 365)
);
--> statement-breakpoint
CREATE TABLE "roster_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"status" varchar(20) NOT NULL,
	"trigger" varchar(10) NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"changed" integer DEFAULT 0 NOT NULL,
	"moved" integer DEFAULT 0 NOT NULL,
	"left" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	"error_text" text,
	"row_errors" jsonb,
	"preview" jsonb,
	"decided_by" uuid,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "roster_runs_status_check" CHECK ("roster_runs"."status" in ('fetched', 'awaiting_approval', 'applied', 'failed', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "roster_sources" ADD CONSTRAINT "roster_sources_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_runs" ADD CONSTRAINT "roster_runs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_runs" ADD CONSTRAINT "roster_runs_source_id_roster_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."roster_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_runs" ADD CONSTRAINT "roster_runs_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "roster_sources_org_id_idx" ON "roster_sources" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "roster_sources_due_idx" ON "roster_sources" USING btree ("next_run_at") WHERE "roster_sources"."enabled";--> statement-breakpoint
CREATE UNIQUE INDEX "roster_runs_org_id_idx" ON "roster_runs" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "roster_runs_org_source_started_idx" ON "roster_runs" USING btree ("organization_id","source_id","started_at");
