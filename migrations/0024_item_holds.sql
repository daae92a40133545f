-- A recipient may ask the desk to hold a waiting item until a date (issue 26, decision 035): the
-- moment the hold ends (the midnight after that date, in the organization's timezone). A held item
-- is not overdue and gets no reminder until then.
ALTER TABLE "mail_items" ADD COLUMN "held_until" timestamp with time zone;--> statement-breakpoint
-- The overdue counters subtract the held items from the waiting ones: this range holds only the
-- few waiting items with a hold, and answers "held now, arrived before X" from the index alone.
CREATE INDEX "mail_items_org_on_hold_idx" ON "mail_items" USING btree ("organization_id","held_until","arrived_at") WHERE "mail_items"."status" in ('pending', 'notified') and "mail_items"."held_until" is not null;
