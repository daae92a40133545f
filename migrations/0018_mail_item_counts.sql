CREATE TABLE "mail_item_counts" (
	"organization_id" uuid NOT NULL,
	"status" varchar(50) NOT NULL,
	"shard" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "mail_item_counts_organization_id_status_shard_pk" PRIMARY KEY("organization_id","status","shard")
);
--> statement-breakpoint
ALTER TABLE "mail_item_counts" ADD CONSTRAINT "mail_item_counts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Counted from here on by the triggers below; no write may slip between the count and them.
LOCK TABLE "mail_items" IN SHARE MODE;--> statement-breakpoint
-- Adds signed counts to this connection's shard of each (organization, status). An organization
-- being deleted (its items going with it by cascade) is skipped: its counts go with it too.
CREATE FUNCTION mail_item_counts_add(organization_ids uuid[], statuses text[], deltas bigint[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO mail_item_counts AS c (organization_id, status, shard, n)
  SELECT d.organization_id, d.status, pg_backend_pid() % 8, d.n
  FROM unnest(organization_ids, statuses, deltas) AS d(organization_id, status, n)
  WHERE d.n <> 0 AND EXISTS (SELECT 1 FROM organizations o WHERE o.id = d.organization_id)
  -- one order for every writer, so two statements sharing a shard cannot deadlock
  ORDER BY d.organization_id, d.status
  ON CONFLICT (organization_id, status, shard) DO UPDATE SET n = c.n + excluded.n
$$;--> statement-breakpoint
CREATE FUNCTION mail_item_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM mail_item_counts_add(array_agg(organization_id), array_agg(status::text), array_agg(n))
    FROM (SELECT organization_id, status, count(*) AS n FROM new_rows GROUP BY 1, 2) d;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM mail_item_counts_add(array_agg(organization_id), array_agg(status::text), array_agg(-n))
    FROM (SELECT organization_id, status, count(*) AS n FROM old_rows GROUP BY 1, 2) d;
  ELSE
    PERFORM mail_item_counts_add(array_agg(organization_id), array_agg(status::text), array_agg(n))
    FROM (
      SELECT organization_id, status, sum(delta)::bigint AS n
      FROM (SELECT organization_id, status, 1 AS delta FROM new_rows
            UNION ALL SELECT organization_id, status, -1 FROM old_rows) x
      GROUP BY 1, 2
    ) d;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER mail_item_counts_insert AFTER INSERT ON mail_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mail_item_counts_track();--> statement-breakpoint
CREATE TRIGGER mail_item_counts_update AFTER UPDATE ON mail_items
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mail_item_counts_track();--> statement-breakpoint
CREATE TRIGGER mail_item_counts_delete AFTER DELETE ON mail_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mail_item_counts_track();--> statement-breakpoint
INSERT INTO mail_item_counts (organization_id, status, shard, n)
SELECT organization_id, status, 0, count(*) FROM mail_items GROUP BY 1, 2;
