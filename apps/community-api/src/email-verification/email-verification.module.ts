import { Module } from '@nestjs/common';
import { ConfiguredCommunityModule, ConfiguredVerificationModule } from '../configured-domain.module';
import { EmailVerificationController } from './email-verification.controller';

@Module({
  imports: [ConfiguredCommunityModule, ConfiguredVerificationModule],
  controllers: [EmailVerificationController],
})
export class EmailVerificationModule {}
