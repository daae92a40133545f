-- Issue 41, item 9 (decision 051). Asking for a link on the recipient's page (decision 032) finds
-- every active recipient, in every organization, with that email (any case) or that phone number
-- (its digits). It read every recipient of the platform (176-221 ms at 200,000). The normalised
-- forms are stored, computed by PostgreSQL from the columns they come from (so no writer can
-- forget them, and an erasure that clears the email or phone clears them with it), and indexed.
-- Columns rather than indexes of the expressions: under row-level security PostgreSQL uses an
-- index of an expression only when its functions are LEAKPROOF, which regexp_replace is not (and
-- only a superuser could mark it); a plain column compared with `=` needs nothing of the kind.
ALTER TABLE "recipients" ADD COLUMN "email_normalized" text GENERATED ALWAYS AS (lower("email")) STORED;--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "phone_digits" text GENERATED ALWAYS AS (regexp_replace("phone", '\D', '', 'g')) STORED;--> statement-breakpoint
CREATE INDEX "recipients_email_normalized_idx" ON "recipients" USING btree ("email_normalized");--> statement-breakpoint
CREATE INDEX "recipients_phone_digits_idx" ON "recipients" USING btree ("phone_digits");
