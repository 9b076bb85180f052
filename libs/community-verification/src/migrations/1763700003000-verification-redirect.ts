import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The redirect a link-mode token was issued with: the link endpoint redirects only there, so a link crafted
 * with someone else's (or no) token cannot bounce a visitor from our domain to an arbitrary site.
 */
export class CommunityVerificationRedirect1763700003000 implements MigrationInterface {
  name = 'CommunityVerificationRedirect1763700003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "community"."verification_tokens" ADD COLUMN IF NOT EXISTS redirect_url text`);
    // Spent and expired rows are looked up too (a second click still redirects with the error).
    await q.query(
      `CREATE INDEX IF NOT EXISTS verification_tokens_digest_idx ON "community"."verification_tokens" (project_id, token_digest)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "community"."verification_tokens_digest_idx"`);
    await q.query(`ALTER TABLE "community"."verification_tokens" DROP COLUMN redirect_url`);
  }
}
