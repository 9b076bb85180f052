import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ServiceDefinition } from './service-definition';

export function buildOpenApiDocument(app: INestApplication, service: ServiceDefinition): OpenAPIObject {
  let builder = new DocumentBuilder().setTitle(service.title).setDescription(service.description).setVersion(service.version);
  if (service.decorateOpenApi) builder = service.decorateOpenApi(builder);
  return SwaggerModule.createDocument(app, builder.build());
}

/** Swagger UI at /docs and the document at /docs/openapi.json. */
export function mountOpenApi(app: INestApplication, service: ServiceDefinition): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, service), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}
