-- Issue 42, section 1 (decision 053). A new organization takes a signature at every hand-over
-- unless an admin turns it off: the column's default changes, so organizations that exist keep
-- the choice they made (or the default they had).
ALTER TABLE "organization_settings" ALTER COLUMN "handover_requires_signature" SET DEFAULT true;
