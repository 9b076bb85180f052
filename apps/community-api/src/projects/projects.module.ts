import { Module } from '@nestjs/common';
import { ConfiguredCommunityModule, ConfiguredVerificationModule } from '../configured-domain.module';
import { AdminProjectsController } from './admin-projects.controller';

@Module({ imports: [ConfiguredCommunityModule, ConfiguredVerificationModule], controllers: [AdminProjectsController] })
export class ProjectsModule {}
