import { MANAGEMENT_SCOPES } from '@acme/oauth';
import { ServiceDefinition } from '@acme/platform-http';
import { ManagementErrorBody } from './http/dto/error-body.response.dto';
import { presentManagementError } from './http/error-presenter';
import { OAuthErrorBody } from './oauth/dto/token.response.dto';

function describeScope(scope: string): string {
  const [action, resource] = scope.split(':');
  const words = resource.split('_').map((w) => w[0].toUpperCase() + w.slice(1));
  return `${action[0].toUpperCase()}${action.slice(1)} ${words.join(' ')}`;
}

export const managementService: ServiceDefinition = {
  name: 'management-api',
  title: 'Management API',
  description: 'Auth0-compatible management API: OAuth client credentials, clients, grants and rate-limit policies.',
  version: '2.0',
  presenter: presentManagementError,
  errorBodies: { default: ManagementErrorBody, byPath: { '/oauth/token': OAuthErrorBody } },
  // The hot routes (token issuance, policy lists) are dominated by framework cost on Express; see README.
  platform: 'fastify',
  decorateOpenApi: (builder) =>
    builder
      .addBearerAuth(
        { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /oauth/token' },
        'bearer',
      )
      .addOAuth2(
        {
          type: 'oauth2',
          description:
            'Client credentials with `audience` = `{PUBLIC_URL}/api/v2/`; where `MANAGEMENT_DEFAULT_AUDIENCE` is set (as `npm start` does), a request without `audience` gets that one, so this dialog works as it is',
          flows: {
            clientCredentials: {
              tokenUrl: '/oauth/token',
              scopes: Object.fromEntries(MANAGEMENT_SCOPES.map((s) => [s, describeScope(s)])),
            },
          },
        },
        'oauth2',
      )
      .addTag('rate-limit-policies', 'Rate limit policies of the OAuth authentication API')
      .addTag('clients', 'Client registry')
      .addTag('client-grants', 'Scopes granted to clients')
      .addTag('oauth', 'Tokens and signing keys'),
};
