import { Module } from '@nestjs/common';
import { VerificationModule } from '@acme/community';
import { AdminProjectsController } from './admin-projects.controller';

@Module({ imports: [VerificationModule], controllers: [AdminProjectsController] })
export class ProjectsModule {}
