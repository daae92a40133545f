-- Issue 44 section 4, decision 066: the language a recipient's messages and page speak, and the
-- organization's default for recipients without one. Values are checked by the API (the supported
-- languages grow with the catalogues, not with migrations); null means "not chosen".
ALTER TABLE "recipients" ADD COLUMN "language" varchar(16);--> statement-breakpoint
ALTER TABLE "organization_settings" ADD COLUMN "default_language" varchar(16) DEFAULT 'en' NOT NULL;
