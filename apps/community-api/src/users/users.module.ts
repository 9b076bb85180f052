import { Module } from '@nestjs/common';
import { RateLimitModule } from '@acme/platform-http';
import { ConfiguredCommunityModule } from '../configured-domain.module';
import { CommunityRateLimitPolicy } from '../http/community-rate-limit.policy';
import { AuthController } from './auth.controller';

@Module({
  imports: [ConfiguredCommunityModule, RateLimitModule.withPolicy(CommunityRateLimitPolicy)],
  controllers: [AuthController],
})
export class UsersModule {}
