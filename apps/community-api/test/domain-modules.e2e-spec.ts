import { ModulesContainer } from '@nestjs/core';
import { CommunityModule } from '@acme/community';
import { CommunityPushModule } from '@acme/community-push';
import { CommunityVerificationModule } from '@acme/community-verification';
import { CommunityTestApp } from './support/community-app';

// The domain modules are not global: several feature modules import the same configured object, and Nest must
// build each of them once (one Clock, one Mailer outbox, one VAPID key store).
describe('configured domain modules', () => {
  let community: CommunityTestApp;

  beforeAll(async () => {
    community = await CommunityTestApp.start();
  });

  afterAll(() => community.close());

  it.each(
    [CommunityModule, CommunityVerificationModule, CommunityPushModule].map(
      (domainModule) => [domainModule.name, domainModule] as const,
    ),
  )('builds %s once although several modules import it', (_name, domainModule) => {
    const modules = [...community.app.app.get(ModulesContainer).values()];
    expect(modules.filter((module) => module.metatype === domainModule)).toHaveLength(1);
  });
});
