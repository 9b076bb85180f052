import { Module } from '@nestjs/common';
import { ManagementAuthGuard } from '../auth/scopes.guard';
import { ConfiguredOAuthModule } from '../oauth/configured-oauth.module';
import { SigningKeysController } from './signing-keys.controller';

/** The signing keys; the store comes from the app's configured OAuthModule. */
@Module({ imports: [ConfiguredOAuthModule], controllers: [SigningKeysController], providers: [ManagementAuthGuard] })
export class KeysModule {}
