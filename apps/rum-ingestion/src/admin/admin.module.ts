import { Module } from '@nestjs/common';
import { RumModule } from '@acme/rum';
import { AdminController } from './admin.controller';

@Module({ imports: [RumModule], controllers: [AdminController] })
export class AdminModule {}
