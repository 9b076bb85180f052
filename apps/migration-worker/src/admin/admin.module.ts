import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { QueueBoardModule } from './queue-board.module';

/** The operator routes: workspace seeding and the queue board. */
@Module({ imports: [QueueBoardModule], controllers: [AdminController] })
export class AdminModule {}
