import { Module } from '@nestjs/common';
import { ConfiguredCommunityModule } from '../configured-domain.module';
import { EventsFeatureModule } from '../events/events-feature.module';
import { AdminSpacesController } from './admin-spaces.controller';

@Module({ imports: [ConfiguredCommunityModule, EventsFeatureModule], controllers: [AdminSpacesController] })
export class SpacesModule {}
