ALTER TYPE "public"."integration_type" ADD VALUE 'slack';--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "attention_reason" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "attention_at" timestamp with time zone;
