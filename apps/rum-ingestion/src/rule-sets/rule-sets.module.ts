import { Module } from '@nestjs/common';
import { RumModule } from '@acme/rum';
import { AuthModule } from '../auth/auth.module';
import { HistoryController } from './history.controller';

@Module({ imports: [RumModule, AuthModule], controllers: [HistoryController] })
export class RuleSetsModule {}
