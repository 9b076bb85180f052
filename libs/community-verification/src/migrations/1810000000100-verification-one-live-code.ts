import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One live verification code per user, checked with its user (docs/community-api.md#email-verification). Codes
 * issued under the old rules (project-wide digests, client-chosen formats) are deleted: they live 5 minutes,
 * and a user simply asks again. The issued-redirect column gives way to the project's allow-list of origins.
 */
export class VerificationOneLiveCode1810000000100 implements MigrationInterface {
  name = 'VerificationOneLiveCode1810000000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "community"."verification_tokens" WHERE consumed_at IS NULL`);
    await q.query(`DROP INDEX IF EXISTS "community"."verification_tokens_live_digest"`);
    await q.query(`DROP INDEX IF EXISTS "community"."verification_tokens_user_idx"`);
    await q.query(`DROP INDEX IF EXISTS "community"."verification_tokens_digest_idx"`);
    await q.query(`ALTER TABLE "community"."verification_tokens" DROP COLUMN IF EXISTS redirect_url`);
    await q.query(
      `CREATE UNIQUE INDEX verification_tokens_live_user ON "community"."verification_tokens" (project_id, user_id) WHERE consumed_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "community"."verification_tokens_live_user"`);
    await q.query(`ALTER TABLE "community"."verification_tokens" ADD COLUMN redirect_url text`);
    await q.query(
      `CREATE INDEX verification_tokens_digest_idx ON "community"."verification_tokens" (project_id, token_digest)`,
    );
    await q.query(
      `CREATE INDEX verification_tokens_user_idx ON "community"."verification_tokens" (project_id, user_id) WHERE consumed_at IS NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX verification_tokens_live_digest ON "community"."verification_tokens" (project_id, token_digest) WHERE consumed_at IS NULL`,
    );
  }
}
