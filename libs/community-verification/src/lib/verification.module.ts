import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitingModule } from '@acme/platform-rate-limiting';
import { Mailer } from '../mail/mailer';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { EmailVerificationService } from './email-verification.service';
import { VerificationToken } from './verification-token.entity';

/** Email verification and project mail; needs the global `CommunityModule`. */
@Module({
  imports: [TypeOrmModule.forFeature([VerificationToken, OutboxMessage]), RateLimitingModule],
  providers: [EmailVerificationService, Mailer],
  exports: [EmailVerificationService, Mailer],
})
export class VerificationModule {}
