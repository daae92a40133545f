CREATE TABLE "handovers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"recipient_id" uuid,
	"collector_name" varchar(255) NOT NULL,
	"identified_by" varchar(20) NOT NULL,
	"proxy_reason" text,
	"signature_photo_id" uuid,
	"photo_id" uuid,
	"handed_over_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recipient_proxies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"name" varchar(255) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_items" ADD COLUMN "handover_id" uuid;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD COLUMN "handover_requires_signature" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD COLUMN "handover_requires_photo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_signature_photo_id_photos_id_fk" FOREIGN KEY ("signature_photo_id") REFERENCES "public"."photos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_photo_id_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."photos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_handed_over_by_users_id_fk" FOREIGN KEY ("handed_over_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipient_proxies" ADD CONSTRAINT "recipient_proxies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipient_proxies" ADD CONSTRAINT "recipient_proxies_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "handovers_org_id_idx" ON "handovers" USING btree ("organization_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "recipient_proxies_org_recipient_name_idx" ON "recipient_proxies" USING btree ("organization_id","recipient_id",lower("name"));--> statement-breakpoint
ALTER TABLE "mail_items" ADD CONSTRAINT "mail_items_handover_id_handovers_id_fk" FOREIGN KEY ("handover_id") REFERENCES "public"."handovers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_items_recipient_waiting_idx" ON "mail_items" USING btree ("recipient_id","organization_id","arrived_at","id") WHERE "mail_items"."status" in ('pending', 'notified');--> statement-breakpoint
CREATE INDEX "mail_items_handover_idx" ON "mail_items" USING btree ("handover_id") WHERE "mail_items"."handover_id" is not null;