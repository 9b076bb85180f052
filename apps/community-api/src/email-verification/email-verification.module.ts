import { Module } from '@nestjs/common';
import { VerificationModule } from '@acme/community';
import { EmailVerificationController } from './email-verification.controller';

@Module({ imports: [VerificationModule], controllers: [EmailVerificationController] })
export class EmailVerificationModule {}
