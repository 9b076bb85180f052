import { Module } from '@nestjs/common';
import { ConfiguredDocumentMigrationModule } from '../configured-document-migration.module';
import { AdminController } from './admin.controller';
import { QueueBoardModule } from './queue-board.module';

/** The operator routes: workspace seeding and the queue board. */
@Module({ imports: [ConfiguredDocumentMigrationModule, QueueBoardModule], controllers: [AdminController] })
export class AdminModule {}
