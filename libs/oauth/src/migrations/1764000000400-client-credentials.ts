import { MigrationInterface, QueryRunner } from 'typeorm';

/** Public keys a client authenticates with at the token endpoint (private_key_jwt, RFC 7523). */
export class ClientCredentials1764000000400 implements MigrationInterface {
  name = 'ClientCredentials1764000000400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "management"."client_credentials" (
        "id" varchar(32) PRIMARY KEY,
        "client_id" varchar(245) NOT NULL REFERENCES "management"."clients"("client_id") ON DELETE CASCADE,
        "name" varchar(128),
        "alg" varchar(8) NOT NULL,
        "kid" varchar(64) NOT NULL,
        "public_key_pem" text NOT NULL,
        "created_at" timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX "ix_client_credentials_client" ON "management"."client_credentials" ("client_id")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "management"."client_credentials"`);
  }
}
