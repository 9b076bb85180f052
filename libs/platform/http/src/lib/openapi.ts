import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ServiceDefinition } from './service-definition';

export function buildOpenApiDocument(app: INestApplication, service: ServiceDefinition): OpenAPIObject {
  let builder = new DocumentBuilder()
    .setTitle(service.title)
    .setDescription(service.description)
    .setVersion(service.version);
  if (service.decorateOpenApi) builder = service.decorateOpenApi(builder);
  const errors = service.errorBodies;
  const extraModels = errors ? [errors.default, ...Object.values(errors.byPath ?? {})] : [];
  const document = SwaggerModule.createDocument(app, builder.build(), { extraModels });
  if (errors) documentErrorBodies(document, errors);
  return document;
}

/** Adds `4XX` and `5XX` in the API's error shape to every operation that does not document them. */
function documentErrorBodies(document: OpenAPIObject, errors: NonNullable<ServiceDefinition['errorBodies']>): void {
  for (const [path, item] of Object.entries(document.paths)) {
    const body = errors.byPath?.[path] ?? errors.default;
    for (const operation of Object.values(item) as { responses?: Record<string, unknown> }[]) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      for (const range of ['4XX', '5XX']) {
        operation.responses[range] ??= {
          description:
            range === '4XX'
              ? "A client error, in the API's error shape"
              : "A server error or an outage, in the API's error shape",
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${body.name}` } } },
        };
      }
    }
  }
}

/** Swagger UI at /docs and the document at /docs/openapi.json. */
export function mountOpenApi(app: INestApplication, service: ServiceDefinition): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, service), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}
