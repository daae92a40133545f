CREATE TABLE "mail_item_arrivals" (
	"organization_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"shard" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "mail_item_arrivals_organization_id_bucket_shard_pk" PRIMARY KEY("organization_id","bucket","shard")
);
--> statement-breakpoint
ALTER TABLE "mail_item_arrivals" ADD CONSTRAINT "mail_item_arrivals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Counted from here on by the triggers below; no write may slip between the count and them.
LOCK TABLE "mail_items" IN SHARE MODE;--> statement-breakpoint
-- The 15 minutes (UTC) an arrival falls in: local midnights of every timezone fall on one of them.
CREATE FUNCTION mail_item_arrival_bucket(arrived_at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_bin('15 minutes', arrived_at, timestamptz '2000-01-01 00:00:00+00')
$$;--> statement-breakpoint
-- Adds signed counts to this connection's shard of each (organization, bucket), as
-- mail_item_counts_add does (an organization being deleted is skipped; one order for every writer).
CREATE FUNCTION mail_item_arrivals_add(organization_ids uuid[], buckets timestamptz[], deltas bigint[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO mail_item_arrivals AS a (organization_id, bucket, shard, n)
  SELECT d.organization_id, d.bucket, pg_backend_pid() % 8, d.n
  FROM unnest(organization_ids, buckets, deltas) AS d(organization_id, bucket, n)
  WHERE d.n <> 0 AND EXISTS (SELECT 1 FROM organizations o WHERE o.id = d.organization_id)
  ORDER BY d.organization_id, d.bucket
  ON CONFLICT (organization_id, bucket, shard) DO UPDATE SET n = a.n + excluded.n
$$;--> statement-breakpoint
CREATE FUNCTION mail_item_arrivals_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM mail_item_arrivals_add(array_agg(organization_id), array_agg(bucket), array_agg(n))
    FROM (SELECT organization_id, mail_item_arrival_bucket(arrived_at) AS bucket, count(*) AS n
          FROM new_rows GROUP BY 1, 2) d;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM mail_item_arrivals_add(array_agg(organization_id), array_agg(bucket), array_agg(-n))
    FROM (SELECT organization_id, mail_item_arrival_bucket(arrived_at) AS bucket, count(*) AS n
          FROM old_rows GROUP BY 1, 2) d;
  ELSE
    -- Most updates change neither the arrival nor the organization: their deltas cancel out.
    PERFORM mail_item_arrivals_add(array_agg(organization_id), array_agg(bucket), array_agg(n))
    FROM (
      SELECT organization_id, bucket, sum(delta)::bigint AS n
      FROM (SELECT organization_id, mail_item_arrival_bucket(arrived_at) AS bucket, 1 AS delta FROM new_rows
            UNION ALL SELECT organization_id, mail_item_arrival_bucket(arrived_at), -1 FROM old_rows) x
      GROUP BY 1, 2
    ) d;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER mail_item_arrivals_insert AFTER INSERT ON mail_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mail_item_arrivals_track();--> statement-breakpoint
CREATE TRIGGER mail_item_arrivals_update AFTER UPDATE ON mail_items
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mail_item_arrivals_track();--> statement-breakpoint
CREATE TRIGGER mail_item_arrivals_delete AFTER DELETE ON mail_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mail_item_arrivals_track();--> statement-breakpoint
INSERT INTO mail_item_arrivals (organization_id, bucket, shard, n)
SELECT organization_id, mail_item_arrival_bucket(arrived_at), 0, count(*) FROM mail_items GROUP BY 1, 2;
