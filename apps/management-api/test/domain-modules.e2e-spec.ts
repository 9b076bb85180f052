import { ModulesContainer } from '@nestjs/core';
import { OAuthModule } from '@acme/oauth';
import { ManagementApp, startManagement } from './support';

// OAuthModule is not global: the OAuth routes and the management API import the same configured object, and Nest
// must build it once (one signing key store, one credential cache).
describe('configured domain module', () => {
  let app: ManagementApp;

  beforeAll(async () => {
    app = await startManagement();
  });

  afterAll(() => app.close());

  it('builds OAuthModule once although several modules import it', () => {
    const modules = [...app.app.get(ModulesContainer).values()];
    expect(modules.filter((module) => module.metatype === OAuthModule)).toHaveLength(1);
  });
});
