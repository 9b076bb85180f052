import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signing-key rotation: besides `current`, a `next` key (published ahead) and `previous` keys (still verifying
 * until revoked). One current and one next at most; any number of previous ones.
 */
export class SigningKeyRotation1764000000300 implements MigrationInterface {
  name = 'SigningKeyRotation1764000000300';

  async up(runner: QueryRunner): Promise<void> {
    const [constraint]: { conname: string }[] = await runner.query(
      `SELECT conname FROM pg_constraint WHERE conrelid = '"management"."signing_keys"'::regclass AND contype = 'u'`,
    );
    if (constraint)
      await runner.query(`ALTER TABLE "management"."signing_keys" DROP CONSTRAINT "${constraint.conname}"`);
    await runner.query(`
      ALTER TABLE "management"."signing_keys"
        ADD COLUMN "current_since" timestamptz(3),
        ADD COLUMN "current_until" timestamptz(3),
        ADD COLUMN "revoked_at" timestamptz(3),
        ADD CONSTRAINT "signing_keys_slot_ck" CHECK ("slot" IN ('current', 'next', 'previous'))`);
    await runner.query(
      `UPDATE "management"."signing_keys" SET "current_since" = "created_at" WHERE "slot" = 'current'`,
    );
    await runner.query(
      `CREATE UNIQUE INDEX "uq_signing_keys_live_slot" ON "management"."signing_keys" ("slot") WHERE "slot" IN ('current', 'next')`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM "management"."signing_keys" WHERE "slot" <> 'current'`);
    await runner.query(`DROP INDEX "management"."uq_signing_keys_live_slot"`);
    await runner.query(`
      ALTER TABLE "management"."signing_keys"
        DROP CONSTRAINT "signing_keys_slot_ck", DROP COLUMN "current_since", DROP COLUMN "current_until", DROP COLUMN "revoked_at",
        ADD CONSTRAINT "signing_keys_slot_key" UNIQUE ("slot")`);
  }
}
