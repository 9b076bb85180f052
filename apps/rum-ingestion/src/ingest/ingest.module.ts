import { Module } from '@nestjs/common';
import { RateLimitingModule } from '@acme/platform-rate-limiting';
import { RumModule } from '@acme/rum';
import { AuthModule } from '../auth/auth.module';
import { IngestController } from './ingest.controller';
import { IngestQuota } from './ingest-quota';

@Module({
  imports: [RumModule, AuthModule, RateLimitingModule],
  controllers: [IngestController],
  providers: [IngestQuota],
})
export class IngestModule {}
