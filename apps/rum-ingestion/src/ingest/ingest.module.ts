import { Module } from '@nestjs/common';
import { RumModule } from '@acme/rum';
import { AuthModule } from '../auth/auth.module';
import { IngestController } from './ingest.controller';

@Module({ imports: [RumModule, AuthModule], controllers: [IngestController] })
export class IngestModule {}
