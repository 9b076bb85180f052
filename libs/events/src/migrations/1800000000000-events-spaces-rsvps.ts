import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Spaces, events, RSVPs and event files. Proximity search uses `cube` + `earthdistance` (no PostGIS): the
 * GeoJSON `location` feeds a stored cube point with a GiST index. `community.geo_point` pins its search_path
 * because earthdistance's SQL functions call `earth()` unqualified. Rows reference the community projects and users.
 */
export class EventsSpacesRsvps1800000000000 implements MigrationInterface {
  name = 'EventsSpacesRsvps1800000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE EXTENSION IF NOT EXISTS cube WITH SCHEMA public`);
    await runner.query(`CREATE EXTENSION IF NOT EXISTS earthdistance WITH SCHEMA public`);
    await runner.query(`
      CREATE FUNCTION "community"."geo_point"(lat float8, lng float8) RETURNS public.cube
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = public, pg_catalog
      AS $$ SELECT ll_to_earth(lat, lng)::cube $$`);
    await runner.query(`
      CREATE TABLE "community"."spaces" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "project_id" uuid NOT NULL REFERENCES "community"."projects" ("id") ON DELETE CASCADE,
        "name" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX "spaces_project_idx" ON "community"."spaces" ("project_id", "created_at")`);
    await runner.query(`
      CREATE TABLE "community"."space_members" (
        "project_id" uuid NOT NULL REFERENCES "community"."projects" ("id") ON DELETE CASCADE,
        "space_id" uuid NOT NULL REFERENCES "community"."spaces" ("id") ON DELETE CASCADE,
        "user_id" uuid NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('active', 'pending', 'banned')),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("space_id", "user_id"),
        FOREIGN KEY ("project_id", "user_id") REFERENCES "community"."users" ("project_id", "id") ON DELETE CASCADE
      )`);
    await runner.query(
      `CREATE INDEX "space_members_user_idx" ON "community"."space_members" ("project_id", "user_id") WHERE "status" = 'active'`,
    );
    await runner.query(`
      CREATE TABLE "community"."events" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "project_id" uuid NOT NULL REFERENCES "community"."projects" ("id") ON DELETE CASCADE,
        "user_id" uuid NOT NULL,
        "title" varchar(300) NOT NULL,
        "description" text,
        "start_time" timestamptz NOT NULL,
        "end_time" timestamptz,
        "timezone" text,
        "type" text NOT NULL CHECK ("type" IN ('online', 'physical', 'hybrid')),
        "url" text,
        "venue_name" text,
        "address" text,
        "location" jsonb,
        "earth_point" public.cube GENERATED ALWAYS AS (
          "community"."geo_point"(("location"->'coordinates'->>1)::float8, ("location"->'coordinates'->>0)::float8)
        ) STORED,
        "space_id" uuid REFERENCES "community"."spaces" ("id") ON DELETE SET NULL,
        "visibility" text NOT NULL CHECK ("visibility" IN ('public', 'members', 'invite')),
        "status" text NOT NULL DEFAULT 'active' CHECK ("status" IN ('active', 'cancelled')),
        "allow_maybe" boolean NOT NULL,
        "guest_list_visible" boolean NOT NULL,
        "capacity" integer CHECK ("capacity" > 0),
        "host_ids" text[] NOT NULL,
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "going_count" integer NOT NULL DEFAULT 0,
        "maybe_count" integer NOT NULL DEFAULT 0,
        "not_going_count" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CHECK ("capacity" IS NULL OR "going_count" <= "capacity"),
        FOREIGN KEY ("project_id", "user_id") REFERENCES "community"."users" ("project_id", "id") ON DELETE CASCADE
      )`);
    await runner.query(
      `CREATE INDEX "events_project_start_idx" ON "community"."events" ("project_id", "start_time", "id")`,
    );
    await runner.query(`CREATE INDEX "events_earth_point_idx" ON "community"."events" USING gist ("earth_point")`);
    await runner.query(`CREATE INDEX "events_host_ids_idx" ON "community"."events" USING gin ("host_ids")`);
    await runner.query(
      `CREATE INDEX "events_space_idx" ON "community"."events" ("space_id") WHERE "space_id" IS NOT NULL`,
    );
    await runner.query(`
      CREATE TABLE "community"."event_rsvps" (
        "project_id" uuid NOT NULL REFERENCES "community"."projects" ("id") ON DELETE CASCADE,
        "event_id" uuid NOT NULL REFERENCES "community"."events" ("id") ON DELETE CASCADE,
        "user_id" uuid NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('going', 'maybe', 'not_going')),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("event_id", "user_id"),
        FOREIGN KEY ("project_id", "user_id") REFERENCES "community"."users" ("project_id", "id") ON DELETE CASCADE
      )`);
    await runner.query(`CREATE INDEX "event_rsvps_user_idx" ON "community"."event_rsvps" ("project_id", "user_id")`);
    await runner.query(`
      CREATE TABLE "community"."event_files" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "project_id" uuid NOT NULL REFERENCES "community"."projects" ("id") ON DELETE CASCADE,
        "event_id" uuid NOT NULL REFERENCES "community"."events" ("id") ON DELETE CASCADE,
        "role" text NOT NULL CHECK ("role" IN ('cover', 'gallery')),
        "position" integer NOT NULL,
        "original_name" text NOT NULL,
        "original" jsonb NOT NULL,
        "variants" jsonb NOT NULL,
        "metadata" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("event_id", "role", "position")
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE IF EXISTS "community"."event_files"`);
    await runner.query(`DROP TABLE IF EXISTS "community"."event_rsvps"`);
    await runner.query(`DROP TABLE IF EXISTS "community"."events"`);
    await runner.query(`DROP TABLE IF EXISTS "community"."space_members"`);
    await runner.query(`DROP TABLE IF EXISTS "community"."spaces"`);
    await runner.query(`DROP FUNCTION IF EXISTS "community"."geo_point"(float8, float8)`);
  }
}
