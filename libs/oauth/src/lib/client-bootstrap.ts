import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ClientGrantService } from './client-grant.service';
import { ClientService } from './client.service';
import { MANAGEMENT_SCOPES, OAuthSettings } from './oauth.settings';

/** Makes the configured bootstrap client, holding every management scope, at start-up. */
@Injectable()
export class ClientBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly settings: OAuthSettings,
    private readonly clients: ClientService,
    private readonly grants: ClientGrantService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const bootstrap = this.settings.bootstrapClient;
    if (!bootstrap) return;
    await this.clients.upsertWithSecret(bootstrap.clientId, bootstrap.clientSecret, 'Bootstrap management client');
    await this.grants.upsert({
      clientId: bootstrap.clientId,
      audience: this.settings.managementAudience,
      scope: [...MANAGEMENT_SCOPES],
    });
  }
}
