import { Module } from '@nestjs/common';
import { RumModule } from '@acme/rum';
import { AuthModule } from '../auth/auth.module';
import { RulesController } from './rules.controller';

@Module({ imports: [RumModule, AuthModule], controllers: [RulesController] })
export class IngestionRulesModule {}
