import { Module } from '@nestjs/common';
import { UserService } from '@acme/community';
import { EventsModule, EventUserDirectory } from '@acme/events';
import { CommunityEnv } from '../config/env';
import { ConfiguredCommunityModule } from '../configured-domain.module';
import { EventsController } from './events.controller';
import { FilesController } from './files.controller';
import { createFileStorage } from './storage.factory';

/** Adapts the community users to the events domain's user lookup. */
class CommunityUserDirectory extends EventUserDirectory {
  constructor(private readonly users: UserService) {
    super();
  }

  async userExists(projectId: string, userId: string): Promise<boolean> {
    return (await this.users.findById(projectId, userId)) !== undefined;
  }
}

const events = EventsModule.forRootAsync({
  imports: [ConfiguredCommunityModule],
  inject: [CommunityEnv, UserService],
  useFactory: (env: CommunityEnv, users: UserService) => ({
    storage: createFileStorage(env),
    users: new CommunityUserDirectory(users),
    maxImagePixels: env.IMAGE_MAX_PIXELS,
    maxRequestPixels: env.IMAGE_MAX_REQUEST_PIXELS,
    imageConcurrency: env.IMAGE_CONCURRENCY,
    uploadSweep: {
      intervalSeconds: env.EVENTS_UPLOAD_SWEEP_INTERVAL_SECONDS,
      graceSeconds: env.EVENTS_UPLOAD_SWEEP_GRACE_SECONDS,
    },
  }),
});

@Module({
  imports: [ConfiguredCommunityModule, events],
  controllers: [EventsController, FilesController],
  exports: [events],
})
export class EventsFeatureModule {}
