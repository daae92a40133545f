CREATE TABLE "organization_data_versions" (
	"organization_id" uuid NOT NULL,
	"shard" integer NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "organization_data_versions_organization_id_shard_pk" PRIMARY KEY("organization_id","shard")
);
--> statement-breakpoint
ALTER TABLE "organization_data_versions" ADD CONSTRAINT "organization_data_versions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Decision 037. One more change for each organization in this connection's shard. An organization
-- being deleted is skipped (its versions go with it by cascade).
CREATE FUNCTION organization_data_bump(organization_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO organization_data_versions AS v (organization_id, shard, version)
  SELECT o.id, pg_backend_pid() % 8, 1
  FROM organizations o
  WHERE o.id = ANY(organization_ids)
  -- one order for every writer, so two statements sharing a shard cannot deadlock
  ORDER BY o.id
  ON CONFLICT (organization_id, shard) DO UPDATE SET version = v.version + 1
$$;--> statement-breakpoint
-- After every statement that inserted, updated or deleted rows: the organizations they belong to
-- (an organization's own row by its id) have changed. A statement that touched no row changes nothing.
CREATE FUNCTION organization_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  IF TG_TABLE_NAME = 'organizations' THEN
    SELECT array_agg(DISTINCT id) INTO ids FROM new_rows;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT organization_id) INTO ids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT organization_id) INTO ids FROM old_rows;
  ELSE
    SELECT array_agg(DISTINCT organization_id) INTO ids
    FROM (SELECT organization_id FROM new_rows UNION SELECT organization_id FROM old_rows) x;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM organization_data_bump(ids);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  -- Every table a cached reply is built from (caches.ts): the lists and their relations, the
  -- dashboard's figures, History's cards, the settings.
  FOREACH t IN ARRAY ARRAY['mail_items', 'mail_item_history', 'recipients', 'mailrooms', 'mailroom_locations',
                           'organization_settings', 'handovers', 'expected_packages']
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION organization_data_changed()', t || '_data_version_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION organization_data_changed()', t || '_data_version_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION organization_data_changed()', t || '_data_version_delete', t);
  END LOOP;
END $$;--> statement-breakpoint
-- The organization's own row (name, timezone, plan, status): its figures depend on it.
CREATE TRIGGER organizations_data_version_update AFTER UPDATE ON organizations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_data_changed();
--> statement-breakpoint
-- A person's name shows in History's rows of every organization they are a member of. (A trigger
-- with transition tables cannot name columns, so it compares the names itself.)
CREATE FUNCTION organization_data_changed_by_user() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  SELECT array_agg(DISTINCT m.organization_id) INTO ids
  FROM organization_members m
  WHERE m.user_id IN (SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
                      WHERE (n.first_name, n.last_name) IS DISTINCT FROM (o.first_name, o.last_name));
  IF ids IS NOT NULL THEN
    PERFORM organization_data_bump(ids);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_data_version_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_data_changed_by_user();
