import { NestExpressApplication } from '@nestjs/platform-express';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppExceptionFilter, AppValidationPipe } from '@acme/platform-errors';
import { isFastify, ServiceApplication, TRUSTED_PROXIES } from './http-platform';
import { mountOpenApi } from './openapi';
import { ServiceDefinition } from './service-definition';

function configureExpress(app: NestExpressApplication, service: ServiceDefinition): void {
  app.disable('x-powered-by');
  app.set('trust proxy', TRUSTED_PROXIES.join(', '));
  app.set('query parser', 'extended');
  const limit = service.bodyLimit ?? '1mb';
  app.useBodyParser('json', { limit });
  app.useBodyParser('urlencoded', { limit, extended: false });
}

/** Fastify chose the request id (createHttpAdapter); pino-http reuses it, so the echo is set here. */
function configureFastify(app: NestFastifyApplication): void {
  app.getHttpAdapter().getInstance().addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
}

/** Everything an app needs between creation and listen; tests call it too, so they run the real stack. */
export function configureApp<A extends ServiceApplication>(app: A, service: ServiceDefinition): A {
  app.useLogger(app.get(Logger));
  // Fastify's other settings are constructor options (createHttpAdapter).
  if (isFastify(app)) configureFastify(app);
  else configureExpress(app as NestExpressApplication, service);
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new AppExceptionFilter(service.presenter));
  app.enableShutdownHooks();
  mountOpenApi(app, service);
  return app;
}
