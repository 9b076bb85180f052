import { Module } from '@nestjs/common';
import { EventsFeatureModule } from '../events/events-feature.module';
import { AdminSpacesController } from './admin-spaces.controller';

@Module({ imports: [EventsFeatureModule], controllers: [AdminSpacesController] })
export class SpacesModule {}
