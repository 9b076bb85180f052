import { Module } from '@nestjs/common';
import { EmailVerificationController } from './email-verification.controller';

@Module({ controllers: [EmailVerificationController] })
export class EmailVerificationModule {}
