import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CreateEventService } from './create-event.service';
import { EventFile } from './event-file.entity';
import { EventQueryService } from './event-query.service';
import { EventRsvp } from './event-rsvp.entity';
import { EventRecord } from './event.entity';
import { EventsSettings } from './events.settings';
import { GuestListService } from './guest-list.service';
import { EventFileRepository, EventRepository, RsvpRepository, SpaceRepository, UploadJournalRepository } from './repositories';
import { RsvpService } from './rsvp.service';
import { Space, SpaceMember } from './space.entity';
import { SpaceService } from './space.service';
import { UploadJournal } from './upload-journal';

export interface EventsModuleOptions {
  imports?: ModuleMetadata['imports'];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inject?: any[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => EventsSettings | Promise<EventsSettings>;
}

const REPOSITORIES = [EventRepository, EventFileRepository, RsvpRepository, SpaceRepository, UploadJournalRepository];
const SERVICES = [CreateEventService, RsvpService, EventQueryService, GuestListService, SpaceService, UploadJournal];

/** Events, RSVPs, event images and spaces; the app supplies storage, the user lookup and limits. */
@Module({})
export class EventsModule {
  static forRootAsync(options: EventsModuleOptions): DynamicModule {
    return {
      module: EventsModule,
      imports: [TypeOrmModule.forFeature([EventRecord, EventRsvp, EventFile, Space, SpaceMember]), ...(options.imports ?? [])],
      providers: [{ provide: EventsSettings, inject: options.inject ?? [], useFactory: options.useFactory }, ...REPOSITORIES, ...SERVICES],
      exports: [EventsSettings, ...REPOSITORIES, ...SERVICES],
    };
  }
}
