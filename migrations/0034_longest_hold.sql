-- Issue 41, item 14 (decision 052). The longest an item may be held at its recipient's request,
-- in days counted from the day it was first held: a hold could be renewed for ever. A constant
-- default: the column is added without rewriting the table, and every organization gets 30 days,
-- what one hold could reach before.
ALTER TABLE "organization_settings" ADD COLUMN "longest_hold_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD CONSTRAINT "organization_settings_longest_hold_days_range" CHECK ("organization_settings"."longest_hold_days" between 1 and 365);
