DROP INDEX "mail_items_org_arrived_idx";--> statement-breakpoint
CREATE INDEX "mail_items_org_arrived_idx" ON "mail_items" USING btree ("organization_id","arrived_at","status");