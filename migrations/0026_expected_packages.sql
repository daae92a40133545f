-- Expected packages (decision 033): tracking numbers a recipient tells the desk to expect. The
-- desk's intake of an item whose tracking number has the same match key (upper case, without
-- spaces or dashes) fills in the recipient and marks the item expected.
CREATE TABLE "expected_packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"tracking_number" varchar(255) NOT NULL,
	"match_key" varchar(255) NOT NULL,
	"carrier" varchar(100),
	"label" varchar(255),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"matched_item_id" uuid,
	"matched_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mail_items" ADD COLUMN "expected_package_id" uuid;--> statement-breakpoint
ALTER TABLE "expected_packages" ADD CONSTRAINT "expected_packages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expected_packages" ADD CONSTRAINT "expected_packages_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expected_packages" ADD CONSTRAINT "expected_packages_matched_item_id_mail_items_id_fk" FOREIGN KEY ("matched_item_id") REFERENCES "public"."mail_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_items" ADD CONSTRAINT "mail_items_expected_package_id_expected_packages_id_fk" FOREIGN KEY ("expected_package_id") REFERENCES "public"."expected_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "expected_packages_org_open_key_idx" ON "expected_packages" USING btree ("organization_id","match_key") WHERE "expected_packages"."matched_at" is null;--> statement-breakpoint
CREATE INDEX "expected_packages_recipient_org_idx" ON "expected_packages" USING btree ("recipient_id","organization_id","created_at");--> statement-breakpoint
CREATE INDEX "expected_packages_matched_item_idx" ON "expected_packages" USING btree ("matched_item_id") WHERE "expected_packages"."matched_item_id" is not null;--> statement-breakpoint
CREATE INDEX "mail_items_expected_package_idx" ON "mail_items" USING btree ("expected_package_id") WHERE "mail_items"."expected_package_id" is not null;
