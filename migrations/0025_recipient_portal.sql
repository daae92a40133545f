-- The recipient's own page (issue 26, decision 032): single-use links that sign a recipient in,
-- the sessions they open, and how the recipient wants to hear about their mail.
CREATE TABLE "recipient_links" (
	"token_hash" varchar(64) PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"purpose" varchar(20) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recipient_sessions" (
	"sid" varchar(64) PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"expire" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "notify_by" varchar(10) DEFAULT 'both' NOT NULL;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_notify_by_check" CHECK ("recipients"."notify_by" in ('email', 'sms', 'both'));--> statement-breakpoint
ALTER TABLE "recipient_links" ADD CONSTRAINT "recipient_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipient_links" ADD CONSTRAINT "recipient_links_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD CONSTRAINT "recipient_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipient_sessions" ADD CONSTRAINT "recipient_sessions_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recipient_links_expires_idx" ON "recipient_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "recipient_links_recipient_idx" ON "recipient_links" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "recipient_sessions_expire_idx" ON "recipient_sessions" USING btree ("expire");--> statement-breakpoint
CREATE INDEX "recipient_sessions_recipient_idx" ON "recipient_sessions" USING btree ("recipient_id");
