import { MigrationInterface, QueryRunner } from 'typeorm';

/** The client settings machine-to-machine setup scripts send (app_type, description, metadata, JWT settings). */
export class ClientSettings1764000000100 implements MigrationInterface {
  name = 'ClientSettings1764000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE "management"."clients"
        ADD COLUMN "description" text,
        ADD COLUMN "app_type" varchar(32),
        ADD COLUMN "client_metadata" jsonb NOT NULL DEFAULT '{}',
        ADD COLUMN "jwt_configuration" jsonb,
        ADD COLUMN "token_endpoint_auth_method" varchar(32) NOT NULL DEFAULT 'client_secret_post'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE "management"."clients"
        DROP COLUMN "description", DROP COLUMN "app_type", DROP COLUMN "client_metadata",
        DROP COLUMN "jwt_configuration", DROP COLUMN "token_endpoint_auth_method"`);
  }
}
