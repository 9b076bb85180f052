import { Module } from '@nestjs/common';
import { ManagementAuthGuard } from '../auth/scopes.guard';
import { ClientCredentialsController } from './client-credentials.controller';
import { ClientGrantsController } from './client-grants.controller';
import { ClientsController } from './clients.controller';

/** Clients, their grants and credentials; the services come from the global OAuthModule. */
@Module({
  controllers: [ClientsController, ClientGrantsController, ClientCredentialsController],
  providers: [ManagementAuthGuard],
})
export class ClientsModule {}
