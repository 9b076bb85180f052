import { Module } from '@nestjs/common';
import { TokenEnforcementModule } from './enforcement/token-enforcement.module';
import { TokenController } from './token.controller';

/** The public OAuth routes; the services come from the global OAuthModule. */
@Module({ imports: [TokenEnforcementModule], controllers: [TokenController] })
export class OAuthHttpModule {}
