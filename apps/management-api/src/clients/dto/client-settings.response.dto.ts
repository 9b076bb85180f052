import { Client } from '@acme/oauth';
import { JwtConfiguration } from './client-settings.request.dto';

/** The settings as Auth0 answers them: unset ones left out. */
export function presentClientSettings(client: Client) {
  return {
    ...(client.description === null ? {} : { description: client.description }),
    ...(client.appType === null ? {} : { app_type: client.appType }),
    client_metadata: client.clientMetadata,
    ...(client.jwtConfiguration === null ? {} : { jwt_configuration: client.jwtConfiguration as JwtConfiguration }),
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
  };
}
