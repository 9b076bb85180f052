import type { IncomingHttpHeaders } from 'node:http';
import { INestApplication } from '@nestjs/common';
import { AdminTokenGuard, AdminTokenSettings } from '@acme/platform-auth';
import { AppExceptionFilter } from '@acme/platform-errors';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { rawRequest } from './http-platform';
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

/** Operator routes: documented only in the operator document (docs/decisions.md#client-addresses-and-the-operator-surface). */
const isOperatorPath = (path: string) => path === '/admin' || path.startsWith('/admin/');

/** Every `#/components/schemas/...` name `value` refers to, directly. */
function schemaRefs(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) schemaRefs(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/'))
        found.add(child.slice('#/components/schemas/'.length));
      else schemaRefs(child, found);
    }
  }
}

/**
 * The document anyone may read: the full one without the operator routes, and without the schemas and tags
 * only those routes used (their names and shapes would describe the operator API all the same).
 */
export function publicOpenApiDocument(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => !isOperatorPath(path)));
  const reachable = new Set<string>();
  schemaRefs(paths, reachable);
  const schemas = document.components?.schemas ?? {};
  for (let pending = [...reachable]; pending.length > 0;) {
    const next = new Set<string>();
    for (const name of pending) schemaRefs(schemas[name], next);
    pending = [...next].filter((name) => !reachable.has(name));
    for (const name of pending) reachable.add(name);
  }
  const usedTags = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item as Record<string, { tags?: string[] }>).flatMap((operation) => operation?.tags ?? []),
    ),
  );
  return {
    ...document,
    paths,
    ...(document.tags ? { tags: document.tags.filter((tag) => usedTags.has(tag.name)) } : {}),
    components: {
      ...document.components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => reachable.has(name))),
    },
  };
}

/**
 * Swagger UI at /docs and the public document at /docs/openapi.json (and .yaml); the whole document, operator
 * routes included (what apps/<app>/openapi.json holds), at /docs/admin/openapi.json with the operator token
 * only: 404 when ADMIN_TOKEN is unset, 401 without it, in the API's error shape.
 */
export function mountOpenApi(app: INestApplication, service: ServiceDefinition): void {
  let full: OpenAPIObject | undefined;
  const document = () => (full ??= buildOpenApiDocument(app, service));
  SwaggerModule.setup('docs', app, () => publicOpenApiDocument(document()), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
  const adapter = app.getHttpAdapter();
  const errors = new AppExceptionFilter(service.presenter);
  adapter.get(OPERATOR_DOCUMENT_PATH, (request: { headers: IncomingHttpHeaders; id?: unknown }, response: unknown) => {
    try {
      new AdminTokenGuard(app.get(AdminTokenSettings)).check(rawRequest(request));
    } catch (error) {
      return errors.respond(error, request, response as Parameters<AppExceptionFilter['respond']>[2]);
    }
    return adapter.reply(response, document(), 200);
  });
}

export const OPERATOR_DOCUMENT_PATH = '/docs/admin/openapi.json';
