import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitingModule } from '@acme/platform-rate-limiting';
import { EmailVerificationService } from './email-verification.service';
import { Mailer } from './mail/mailer';
import { OutboxMessage } from './mail/outbox-message.entity';
import { OutboxRepository } from './repositories/outbox.repository';
import { VerificationTokenRepository } from './repositories/verification-token.repository';
import { VerificationToken } from './verification-token.entity';
import { VerificationSettings } from './verification.settings';

export interface VerificationModuleOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inject?: any[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => VerificationSettings;
}

/** Email verification and project mail. Global, imported once by the app; needs the global `CommunityModule`. */
@Module({})
export class CommunityVerificationModule {
  static forRootAsync(options: VerificationModuleOptions): DynamicModule {
    return {
      module: CommunityVerificationModule,
      global: true,
      imports: [TypeOrmModule.forFeature([VerificationToken, OutboxMessage]), RateLimitingModule],
      providers: [{ provide: VerificationSettings, inject: options.inject, useFactory: options.useFactory }, VerificationTokenRepository, OutboxRepository, EmailVerificationService, Mailer],
      exports: [VerificationSettings, EmailVerificationService, Mailer],
    };
  }
}
