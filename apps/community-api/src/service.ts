import { ServiceDefinition } from '@acme/platform-http';
import { CommunityErrorBody } from './http/dto/error-body.response.dto';
import { presentCommunityError } from './http/error-presenter';

export const communityService: ServiceDefinition = {
  name: 'community-api',
  title: 'Community API',
  description:
    'Replyke-style project community API: end users, email verification, push devices, events, spaces and RSVPs.',
  version: '7.0',
  presenter: presentCommunityError,
  errorBodies: { default: CommunityErrorBody },
  /** Fastify: see the Benchmark section of the README for what it bought on the auth and device routes. */
  platform: 'fastify',
  /** As on Express: event creation streams multipart uploads through busboy (src/events/multipart-upload.ts), other media types fail validation (400). */
  unparsedBodies: 'unread',
  decorateOpenApi: (builder) =>
    builder.addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description:
          "An end user's access token (sign-up, sign-in), or the project's service or master key (operator API: ADMIN_TOKEN)",
      },
      'bearer',
    ),
};
