import { Module } from '@nestjs/common';
import { ManagementAuthGuard } from '../auth/scopes.guard';
import { ConfiguredOAuthModule } from '../oauth/configured-oauth.module';
import { ClientCredentialsController } from './client-credentials.controller';
import { ClientGrantsController } from './client-grants.controller';
import { ClientsController } from './clients.controller';

/** Clients, their grants and credentials; the services come from the app's configured OAuthModule. */
@Module({
  imports: [ConfiguredOAuthModule],
  controllers: [ClientsController, ClientGrantsController, ClientCredentialsController],
  providers: [ManagementAuthGuard],
})
export class ClientsModule {}
