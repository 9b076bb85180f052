import { MigrationInterface, QueryRunner } from 'typeorm';

/** Projects, end users and refresh tokens. Child rows reference (project_id, id) so none can cross projects. */
export class CommunityCore1763700000000 implements MigrationInterface {
  name = 'CommunityCore1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "community"."projects" (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      bundles text[] NOT NULL DEFAULT '{}',
      service_key_digest text NOT NULL UNIQUE,
      master_key_digest text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE "community"."users" (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      project_id uuid NOT NULL REFERENCES "community"."projects"(id) ON DELETE CASCADE,
      email text NOT NULL,
      password_hash text NOT NULL,
      name text,
      is_verified boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT users_project_email_key UNIQUE (project_id, email),
      CONSTRAINT users_project_id_key UNIQUE (project_id, id))`);
    await q.query(`CREATE TABLE "community"."refresh_tokens" (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      project_id uuid NOT NULL,
      user_id uuid NOT NULL,
      family_id uuid NOT NULL,
      token_digest text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (project_id, user_id) REFERENCES "community"."users"(project_id, id) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX refresh_tokens_family_idx ON "community"."refresh_tokens" (project_id, family_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "community"."refresh_tokens"`);
    await q.query(`DROP TABLE "community"."users"`);
    await q.query(`DROP TABLE "community"."projects"`);
  }
}
