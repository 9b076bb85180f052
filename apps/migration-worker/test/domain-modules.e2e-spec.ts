import { WorkerHost } from '@nestjs/bullmq';
import { ModulesContainer } from '@nestjs/core';
import { DocumentMigrationModule } from '@acme/document-migration';
import { TestApp } from '@acme/platform-testing';
import { startMigrationApp } from './support';

// DocumentMigrationModule is not global: the API and worker modules import the same configured object, and Nest
// must build it once (one runner, one reconciler, one queue producer).
describe('configured domain module', () => {
  let app: TestApp;

  const modules = () => [...app.app.get(ModulesContainer).values()];

  beforeAll(async () => {
    app = await startMigrationApp({ MIGRATION_ROLE: 'all' });
  });

  afterAll(async () => {
    // Closing while the BullMQ worker is still connecting makes its connection fail loudly.
    const workers = modules()
      .flatMap((module) => [...module.providers.values()].map((wrapper) => wrapper.instance))
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost);
    await Promise.all(workers.map((host) => host.worker.waitUntilReady()));
    await app.close();
  });

  it('builds DocumentMigrationModule once although the API and worker modules both import it', () => {
    expect(modules().filter((module) => module.metatype === DocumentMigrationModule)).toHaveLength(1);
  });
});
