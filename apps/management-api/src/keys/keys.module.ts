import { Module } from '@nestjs/common';
import { ManagementAuthGuard } from '../auth/scopes.guard';
import { SigningKeysController } from './signing-keys.controller';

/** The signing keys; the store comes from the global OAuthModule. */
@Module({ controllers: [SigningKeysController], providers: [ManagementAuthGuard] })
export class KeysModule {}
