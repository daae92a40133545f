-- Microsoft Teams channels (issue 44, decision 065): an integration of type 'teams' posts an
-- Adaptive Card to a Teams Workflows webhook. Its mailroom (or none: every mailroom) and its URL
-- live in integrations.config (teamsSettings), like the other types' settings.
ALTER TYPE "integration_type" ADD VALUE IF NOT EXISTS 'teams';
--> statement-breakpoint
-- The recipient's choice becomes a set of channels (email, sms, slack, teams); null is every
-- channel the organization offers them, as 'both' was. 'email' and 'sms' keep their meaning.
ALTER TABLE "recipients" ADD COLUMN "notify_channels" text[];
--> statement-breakpoint
UPDATE "recipients" SET "notify_channels" = ARRAY["notify_by"]::text[] WHERE "notify_by" IN ('email', 'sms');
--> statement-breakpoint
ALTER TABLE "recipients" DROP CONSTRAINT IF EXISTS "recipients_notify_by_check";
--> statement-breakpoint
ALTER TABLE "recipients" DROP COLUMN "notify_by";
--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_notify_channels_check" CHECK ("notify_channels" IS NULL OR (cardinality("notify_channels") > 0 AND "notify_channels" <@ ARRAY['email', 'sms', 'slack', 'teams']::text[]));
