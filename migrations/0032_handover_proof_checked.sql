-- Issue 41, item 12 (decision 050). A hand-over made through an API key records the key: its id
-- while it exists, its name for good (a deleted or renamed key still says which integration it was).
-- Null on both: a person at the desk. The staff member stays in handed_over_by (the key's creator).
ALTER TABLE "handovers" ADD COLUMN "api_key_id" uuid;--> statement-breakpoint
ALTER TABLE "handovers" ADD COLUMN "api_key_name" varchar(255);--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id")
  REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;
