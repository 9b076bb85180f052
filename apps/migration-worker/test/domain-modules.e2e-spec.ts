import { ModulesContainer } from '@nestjs/core';
import { DocumentMigrationModule } from '@acme/document-migration';
import { TestApp } from '@acme/platform-testing';
import { startMigrationApp } from './support';

// DocumentMigrationModule is not global: the API and worker modules import the same configured object, and Nest
// must build it once (one runner, one reconciler, one queue producer).
describe('configured domain module', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startMigrationApp({ MIGRATION_ROLE: 'all' });
  });

  afterAll(() => app.close());

  it('builds DocumentMigrationModule once although the API and worker modules both import it', () => {
    const modules = [...app.app.get(ModulesContainer).values()];
    expect(modules.filter((module) => module.metatype === DocumentMigrationModule)).toHaveLength(1);
  });
});
