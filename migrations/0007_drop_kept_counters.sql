ALTER TABLE "mailroom_locations" DROP CONSTRAINT "mailroom_locations_count_nonnegative";--> statement-breakpoint
ALTER TABLE "mailroom_locations" DROP COLUMN "current_count";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "current_month_packages";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "usage_reset_date";