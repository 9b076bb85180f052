import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Ajv, { ValidateFunction } from 'ajv8';
import addFormats from 'ajv-formats';

interface MediaType {
  schema?: object;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>>;
}
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  literals: number;
  responses: Record<string, ResponseObject>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
/** Bodies past this size are not kept (uploads answer small JSON; files are not JSON). */
const MAX_BODY = 2 * 1024 * 1024;

const escapeJsonPointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks answers against a published OpenAPI document: the status must be one the operation documents, and a
 * JSON body must match the schema documented for that status. Paths the document does not describe (health,
 * metrics, docs, unknown routes) are not its business.
 */
export class ContractChecker {
  // OpenAPI's own keywords and formats (example, nullable, custom formats) are not errors here: strict off, no warnings.
  private readonly ajv = new Ajv({ strict: false, allErrors: false, logger: false });
  private readonly operations: Operation[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, 'contract');
    this.operations = Object.entries(document.paths).flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.has(method))
        .map(([method, operation]) => {
          const source = template
            .split(/\{[^}]+\}/)
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]+');
          return {
            method: method.toUpperCase(),
            template,
            pattern: new RegExp(`^${source}/?$`),
            literals: template.replace(/\{[^}]+\}/g, '').length,
            responses: operation.responses ?? {},
          };
        }),
    );
    // The most specific template first: a literal segment beats a parameter in the same place.
    this.operations.sort((a, b) => b.literals - a.literals);
  }

  /** A description of what does not match, or undefined when the answer keeps the contract. */
  check(
    method: string,
    url: string,
    status: number,
    contentType: string | undefined,
    body: Buffer,
  ): string | undefined {
    const path = url.split('?')[0];
    const operation = this.operations.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    if (!operation) return undefined;
    const key =
      String(status) in operation.responses
        ? String(status)
        : `${String(status)[0]}XX` in operation.responses
          ? `${String(status)[0]}XX`
          : 'default' in operation.responses
            ? 'default'
            : undefined;
    const where = `${method} ${operation.template} → ${status}`;
    if (!key) return `${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`;
    if (!contentType?.includes('json') || body.length === 0) return undefined;
    const documented = operation.responses[key].content ?? {};
    const mediaType = Object.keys(documented).find((type) => type.includes('json'));
    if (!mediaType || !documented[mediaType].schema) return `${where}: a JSON body where the contract documents none`;
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return `${where}: content-type ${contentType} but the body is not JSON`;
    }
    const validate = this.validator(operation, key, mediaType);
    if (validate(value)) return undefined;
    const problems = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ');
    return `${where}: body does not match the schema (${problems}): ${body.toString('utf8').slice(0, 300)}`;
  }

  private validator(operation: Operation, status: string, mediaType: string): ValidateFunction {
    const ref = `contract#/paths/${escapeJsonPointer(operation.template)}/${operation.method.toLowerCase()}/responses/${status}/content/${escapeJsonPointer(mediaType)}/schema`;
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    return validate;
  }
}

const checkers = new Map<string, ContractChecker | undefined>();
const violations: string[] = [];

/** What the checked servers answered against their contract since the last call (the e2e setup fails the test). */
export function takeContractViolations(): string[] {
  return violations.splice(0);
}

/** Checks every answer `server` gives against the OpenAPI document at `documentPath` (when it exists). */
export function checkAnswersAgainstContract(server: Server, documentPath: string): void {
  if (!checkers.has(documentPath)) {
    checkers.set(
      documentPath,
      existsSync(documentPath)
        ? new ContractChecker(JSON.parse(readFileSync(documentPath, 'utf8')) as OpenApiDocument)
        : undefined,
    );
  }
  const checker = checkers.get(documentPath);
  if (!checker) return;
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Watching must never break an answer: a chunk it cannot copy just ends the watch of that response.
    const keep = (chunk: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_BODY) return;
      try {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        size += buffer.length;
        chunks.push(buffer);
      } catch {
        size = MAX_BODY + 1;
      }
    };
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    response.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    response.once('finish', () => {
      if (size > MAX_BODY) return;
      const contentType = response.getHeader('content-type');
      try {
        const violation = checker.check(
          request.method ?? 'GET',
          request.url ?? '/',
          response.statusCode,
          contentType === undefined ? undefined : String(contentType),
          Buffer.concat(chunks),
        );
        if (violation) violations.push(violation);
      } catch (error) {
        violations.push(
          `${request.method} ${request.url} → ${response.statusCode}: the contract could not be checked (${(error as Error).message})`,
        );
      }
    });
  });
}
