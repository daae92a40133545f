DROP INDEX "mailroom_locations_org_mailroom_idx";--> statement-breakpoint
DROP INDEX "mailrooms_org_idx";--> statement-breakpoint
DROP INDEX "recipients_org_active_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "mailroom_locations_org_id_idx" ON "mailroom_locations" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "mailroom_locations_mailroom_org_idx" ON "mailroom_locations" USING btree ("mailroom_id","organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mailrooms_org_id_idx" ON "mailrooms" USING btree ("organization_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "recipients_org_id_idx" ON "recipients" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "recipients_active_org_idx" ON "recipients" USING btree ("is_active","organization_id");