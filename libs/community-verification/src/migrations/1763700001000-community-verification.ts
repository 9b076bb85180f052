import { MigrationInterface, QueryRunner } from 'typeorm';

/** Verification tokens (HMAC digests, unique while unconsumed) and the per-project mail outbox. */
export class CommunityVerification1763700001000 implements MigrationInterface {
  name = 'CommunityVerification1763700001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "community"."verification_tokens" (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      project_id uuid NOT NULL,
      user_id uuid NOT NULL,
      token_digest text NOT NULL,
      mode text NOT NULL,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (project_id, user_id) REFERENCES "community"."users"(project_id, id) ON DELETE CASCADE)`);
    await q.query(
      `CREATE UNIQUE INDEX verification_tokens_live_digest ON "community"."verification_tokens" (project_id, token_digest) WHERE consumed_at IS NULL`,
    );
    await q.query(
      `CREATE INDEX verification_tokens_user_idx ON "community"."verification_tokens" (project_id, user_id) WHERE consumed_at IS NULL`,
    );
    await q.query(`CREATE TABLE "community"."outbox_messages" (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES "community"."projects"(id) ON DELETE CASCADE,
      "to" text NOT NULL,
      subject text NOT NULL,
      text text NOT NULL,
      html text NOT NULL,
      sent_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX outbox_messages_project_idx ON "community"."outbox_messages" (project_id, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "community"."outbox_messages"`);
    await q.query(`DROP TABLE "community"."verification_tokens"`);
  }
}
