-- Pickup codes (decision 031): six characters a person reads, types and says without confusion
-- (no 0/O/Q, 1/I/L, 2/Z, 5/S, 6/G, 8/B), unique in the organization.
-- Drawn from the first six bytes of a version 4 UUID: gen_random_uuid() reads the server's strong
-- random source, and those bytes are all random (the version and variant bits come later).
CREATE FUNCTION pickup_code_draw() RETURNS varchar LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT string_agg(substr('ACDEFHJKMNPRTUVWXY3479', get_byte(r.b, i) % 22 + 1, 1), '' ORDER BY i)
  FROM (SELECT uuid_send(gen_random_uuid()) AS b) r, generate_series(0, 5) AS i
$$;--> statement-breakpoint
-- Draws again while another recipient of the organization holds the code, so an insert (one, or
-- an import's thousands in one statement: a row trigger sees the rows written before it) or a
-- regeneration never collides; two concurrent writers drawing the same code meet the unique index.
CREATE FUNCTION recipients_pickup_code_unique() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A regeneration always changes the code (OLD is null on insert).
  WHILE NEW.pickup_code IS NULL OR NEW.pickup_code = OLD.pickup_code OR EXISTS (
    SELECT 1 FROM recipients r
    WHERE r.organization_id = NEW.organization_id AND r.pickup_code = NEW.pickup_code AND r.id <> NEW.id
  ) LOOP
    NEW.pickup_code := pickup_code_draw();
  END LOOP;
  RETURN NEW;
END
$$;--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "pickup_code" varchar(6);--> statement-breakpoint
CREATE TRIGGER recipients_pickup_code_unique BEFORE INSERT OR UPDATE OF pickup_code ON recipients
  FOR EACH ROW EXECUTE FUNCTION recipients_pickup_code_unique();--> statement-breakpoint
-- Every recipient there is gets one (the trigger draws for each null).
UPDATE "recipients" SET "pickup_code" = NULL;--> statement-breakpoint
ALTER TABLE "recipients" ALTER COLUMN "pickup_code" SET DEFAULT pickup_code_draw();--> statement-breakpoint
ALTER TABLE "recipients" ALTER COLUMN "pickup_code" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "recipients_pickup_code_org_idx" ON "recipients" USING btree ("pickup_code","organization_id");
