CREATE TABLE "platform_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "platform_log_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" varchar(16) NOT NULL,
	"action" varchar(64) NOT NULL,
	"actor_id" uuid,
	"actor_email" varchar(255),
	"target_type" varchar(32),
	"target_id" varchar(64),
	"target_label" varchar(255),
	"before" jsonb,
	"after" jsonb,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platform_log" ADD CONSTRAINT "platform_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_log_seq_idx" ON "platform_log" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "platform_log_kind_seq_idx" ON "platform_log" USING btree ("kind","seq");--> statement-breakpoint
CREATE INDEX "organizations_created_idx" ON "organizations" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "organizations_search_trgm_idx" ON "organizations" USING gin ((lower(name || ' ' || coalesce(email_domain, ''))) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ((lower(email || ' ' || username || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, ''))) gin_trgm_ops);