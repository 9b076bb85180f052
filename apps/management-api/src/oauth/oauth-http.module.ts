import { Module } from '@nestjs/common';
import { ConfiguredOAuthModule } from './configured-oauth.module';
import { TokenEnforcementModule } from './enforcement/token-enforcement.module';
import { TokenController } from './token.controller';

/** The public OAuth routes. */
@Module({ imports: [ConfiguredOAuthModule, TokenEnforcementModule], controllers: [TokenController] })
export class OAuthHttpModule {}
