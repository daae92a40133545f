-- Issue 28 (decision 041). The label match threshold, in percent, set by admins in Settings.
ALTER TABLE "organization_settings" ADD COLUMN "label_match_threshold" integer DEFAULT 80 NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD CONSTRAINT "organization_settings_label_match_threshold_range"
  CHECK ("label_match_threshold" BETWEEN 50 AND 100);--> statement-breakpoint
-- Items logged without a recipient wait in the status 'needs_recipient' (no new table, so the data
-- version triggers of migration 0027 and the status counts of migration 0018 already cover them).
-- Such an item has no recipient; resolving it sets the recipient and 'pending' in one write.
ALTER TABLE "mail_items" ADD CONSTRAINT "mail_items_needs_recipient_check"
  CHECK ("status" <> 'needs_recipient' OR "recipient_id" IS NULL);--> statement-breakpoint
-- The "Needs a recipient" list in its order, from an index holding only those items.
CREATE INDEX "mail_items_org_needs_recipient_idx" ON "mail_items" USING btree ("organization_id","arrived_at","id")
  WHERE "mail_items"."status" = 'needs_recipient';
