-- Issue 41, item 1 (decision 047). An expected package never claims a parcel on its own, so one
-- tracking number may be expected by several recipients of an organization (the desk offers them
-- all and the clerk chooses). The open index is unique per recipient instead of per number: the
-- intake's and the desk's match still probe it by (organization, match key).
DROP INDEX IF EXISTS "expected_packages_org_open_key_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "expected_packages_org_open_key_recipient_idx" ON "expected_packages" USING btree ("organization_id","match_key","recipient_id") WHERE "expected_packages"."matched_at" is null;
