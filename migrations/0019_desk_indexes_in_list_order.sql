DROP INDEX "mail_items_org_status_arrived_idx";--> statement-breakpoint
DROP INDEX "mail_items_org_recipient_idx";--> statement-breakpoint
DROP INDEX "mail_items_org_location_idx";--> statement-breakpoint
DROP INDEX "mail_items_org_tracking_idx";--> statement-breakpoint
DROP INDEX "mail_items_org_arrived_idx";--> statement-breakpoint
CREATE INDEX "mail_items_status_org_arrived_idx" ON "mail_items" USING btree ("status","organization_id","arrived_at");--> statement-breakpoint
CREATE INDEX "mail_items_recipient_org_idx" ON "mail_items" USING btree ("recipient_id","organization_id");--> statement-breakpoint
CREATE INDEX "mail_items_location_org_idx" ON "mail_items" USING btree ("location_id","organization_id");--> statement-breakpoint
CREATE INDEX "mail_items_tracking_org_idx" ON "mail_items" USING btree ("tracking_number","organization_id");--> statement-breakpoint
CREATE INDEX "mail_items_org_arrived_idx" ON "mail_items" USING btree ("organization_id","arrived_at","id","status");