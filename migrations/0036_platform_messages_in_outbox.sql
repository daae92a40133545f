-- Issue 42 (decision 054). Every email and SMS goes through the outbox, the platform's own messages
-- too: sign-in links, two-factor notices and the like belong to a user, not to an organization, so
-- their rows have no organization. Row-level security (decision 016) is unchanged: a row without
-- an organization is seen only by platform code (unscoped), which is who queues and sends them.
ALTER TABLE "notification_jobs" ALTER COLUMN "organization_id" DROP NOT NULL;
