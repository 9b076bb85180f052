import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppExceptionFilter, AppValidationPipe } from '@acme/platform-errors';
import { mountOpenApi } from './openapi';
import { ServiceDefinition } from './service-definition';

/** Everything an app needs between creation and listen; tests call it too, so they run the real stack. */
export function configureApp(app: NestExpressApplication, service: ServiceDefinition): NestExpressApplication {
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.set('query parser', 'extended');
  const limit = service.bodyLimit ?? '1mb';
  app.useBodyParser('json', { limit });
  app.useBodyParser('urlencoded', { limit, extended: false });
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new AppExceptionFilter(service.presenter));
  app.enableShutdownHooks();
  mountOpenApi(app, service);
  return app;
}
