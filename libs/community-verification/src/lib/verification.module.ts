import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitingModule } from '@acme/platform-rate-limiting';
import { EmailVerificationService } from './email-verification.service';
import { Mailer } from './mail/mailer';
import { OutboxMessage } from './mail/outbox-message.entity';
import { OutboxRepository } from './repositories/outbox.repository';
import { VerificationTokenRepository } from './repositories/verification-token.repository';
import { VerificationToken } from './verification-token.entity';
import { VerificationSettings } from './verification.settings';

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<VerificationSettings>()
  .setClassMethodName('forRoot')
  .build();

/**
 * Email verification and project mail. Not global; needs the app's configured `CommunityModule` (users, settings,
 * Clock), passed in `forRootAsync({ imports: [community], ... })`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([VerificationToken, OutboxMessage]), RateLimitingModule],
  providers: [
    { provide: VerificationSettings, useExisting: MODULE_OPTIONS_TOKEN },
    VerificationTokenRepository,
    OutboxRepository,
    EmailVerificationService,
    Mailer,
  ],
  exports: [VerificationSettings, EmailVerificationService, Mailer],
})
export class CommunityVerificationModule extends ConfigurableModuleClass {}
