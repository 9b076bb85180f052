import { Module } from '@nestjs/common';
import { TokenController } from './token.controller';

/** The public OAuth routes; the services come from the global OAuthModule. */
@Module({ controllers: [TokenController] })
export class OAuthHttpModule {}
