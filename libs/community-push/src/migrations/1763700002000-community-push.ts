import { MigrationInterface, QueryRunner } from 'typeorm';

/** Push devices (one row per physical device within a project) and the deployment's VAPID key pair. */
export class CommunityPush1763700002000 implements MigrationInterface {
  name = 'CommunityPush1763700002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "community"."push_devices" (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      project_id uuid NOT NULL,
      user_id uuid NOT NULL,
      platform text NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
      device_key text NOT NULL,
      p256dh text,
      auth text,
      last_seen_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT push_devices_project_device_key UNIQUE (project_id, device_key),
      FOREIGN KEY (project_id, user_id) REFERENCES "community"."users"(project_id, id) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX push_devices_user_idx ON "community"."push_devices" (project_id, user_id)`);
    await q.query(`CREATE TABLE "community"."push_vapid_keys" (
      id int PRIMARY KEY CHECK (id = 1),
      public_key text NOT NULL,
      private_key text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "community"."push_vapid_keys"`);
    await q.query(`DROP TABLE "community"."push_devices"`);
  }
}
