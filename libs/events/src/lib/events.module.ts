import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CreateEventService } from './create-event.service';
import { EventFile } from './event-file.entity';
import { EventQueryService } from './event-query.service';
import { EventRsvp } from './event-rsvp.entity';
import { EventRecord } from './event.entity';
import { EventsSettings } from './events.settings';
import { GuestListService } from './guest-list.service';
import {
  EventFileRepository,
  EventRepository,
  RsvpRepository,
  SpaceRepository,
  UploadJournalRepository,
} from './repositories';
import { RenditionPool } from './rendition-pool';
import { RsvpService } from './rsvp.service';
import { Space, SpaceMember } from './space.entity';
import { SpaceService } from './space.service';
import { UploadJournal } from './upload-journal';

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<EventsSettings>()
  .setClassMethodName('forRoot')
  .build();

const REPOSITORIES = [EventRepository, EventFileRepository, RsvpRepository, SpaceRepository, UploadJournalRepository];
const SERVICES = [CreateEventService, RsvpService, EventQueryService, GuestListService, SpaceService, UploadJournal];

/** Events, RSVPs, event images and spaces; the app supplies storage, the user lookup and limits. */
@Module({
  imports: [TypeOrmModule.forFeature([EventRecord, EventRsvp, EventFile, Space, SpaceMember])],
  providers: [
    { provide: EventsSettings, useExisting: MODULE_OPTIONS_TOKEN },
    // One per instance: every request's image jobs share it (issue 25).
    {
      provide: RenditionPool,
      inject: [EventsSettings],
      useFactory: (settings: EventsSettings) => new RenditionPool(settings.imageConcurrency),
    },
    ...REPOSITORIES,
    ...SERVICES,
  ],
  exports: [EventsSettings, ...REPOSITORIES, ...SERVICES],
})
export class EventsModule extends ConfigurableModuleClass {}
