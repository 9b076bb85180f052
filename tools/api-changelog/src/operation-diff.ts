import { CheckId } from './checks';
import { change, describeFinding, OperationRef, SchemaLocation } from './describe';
import { ClassifiedChange } from './model';
import { Direction, isDefault, SchemaDiffer, SchemaFinding } from './schema-diff';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Node = Record<string, any>;

export const node = (value: unknown): Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : {};
export const isSuccess = (status: string) => /^2(\d\d|XX)$/i.test(status);
/** A body, header or parameter without a schema accepts anything: compared as the empty schema. */
const schemaOf = (holder: Node): unknown => holder['schema'] ?? {};

/**
 * The changes of one operation. `inverted` is for webhooks and callbacks: there the API sends the request and
 * the client answers, so the request is what a client reads and the responses what it sends.
 */
export class OperationDiff {
  readonly changes: ClassifiedChange[] = [];

  constructor(
    private readonly differ: SchemaDiffer,
    readonly op: OperationRef,
    readonly inverted = false,
  ) {}

  add(check: CheckId, description: string): void {
    this.changes.push(change(this.op, check, description));
  }

  /**
   * `side` is where the schema sits (request or response); the direction follows from who sends it. `text`: the
   * value travels as text (parameters, headers, non-JSON bodies). `adjust` may rename or drop a finding.
   */
  schema(
    oldSchema: unknown,
    newSchema: unknown,
    side: Direction,
    location: SchemaLocation,
    text: boolean,
    adjust?: (f: SchemaFinding) => SchemaFinding | undefined,
  ): void {
    const direction: Direction = this.inverted ? (side === 'request' ? 'response' : 'request') : side;
    for (const finding of this.differ.compare(oldSchema, newSchema, { direction, text })) {
      const adjusted = adjust ? adjust(finding) : finding;
      if (adjusted) this.changes.push(describeFinding(this.op, adjusted, location));
    }
  }
}

function parameters(item: Node, operation: Node, path: string): Map<string, Node> {
  const names = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const byKey = new Map<string, Node>();
  for (const raw of [
    ...(Array.isArray(item['parameters']) ? item['parameters'] : []),
    ...(Array.isArray(operation['parameters']) ? operation['parameters'] : []),
  ]) {
    const p = node(raw);
    const name = String(p['name']);
    const where = String(p['in']);
    const position = names.indexOf(name);
    const key =
      where === 'path' && position >= 0
        ? `path#${position}`
        : `${where}:${where === 'header' ? name.toLowerCase() : name}`;
    byKey.set(key, p);
  }
  return byKey;
}

const parameterSchema = (p: Node): unknown =>
  p['schema'] ?? Object.values(node(p['content'])).map((m) => node(m)['schema'])[0];
const typesOf = (schema: Node): string[] =>
  Array.isArray(schema['type']) ? schema['type'] : typeof schema['type'] === 'string' ? [schema['type']] : [];

/**
 * A form-style exploded query parameter (the default) sends `?x=a` for a scalar and `?x=a&x=b` for an array,
 * so a scalar generalised to an array of the same scalar still accepts every old call: compare against the items.
 */
function explodedArrayItems(oldSchema: Node, n: Node, newSchema: Node): unknown {
  const form = n['in'] === 'query' && (n['style'] === undefined || n['style'] === 'form') && n['explode'] !== false;
  const scalar = typesOf(oldSchema).length > 0 && !typesOf(oldSchema).some((t) => t === 'array' || t === 'object');
  return form && scalar && typesOf(newSchema).includes('array') && typeof newSchema['items'] === 'object'
    ? newSchema['items']
    : undefined;
}

/** Media types whose values are typed JSON; any other body travels as text (oasdiff's "strongly typed" test). */
const isJsonMedia = (media: string) => /^application\/json\b|\+json\b/.test(media);

/**
 * deepObject values travel as text (`?filter[a]=1`): a property that was a string and becomes a number refuses
 * `abc` (breaking, as the text rule already says), but one that moves between two other types (boolean to integer)
 * may or may not be read from the same text, so it is potentially breaking.
 */
const deepObjectAdjust = (f: SchemaFinding): SchemaFinding =>
  f.check === 'request-type-changed' && f.path !== '' && !(f.from ?? '').split(' | ').includes('string')
    ? { ...f, check: 'request-deep-object-type-changed' }
    : f;

/** A parameter's default, unlike a body property's, is what the server uses whenever a client leaves it out. */
const PARAMETER_DEFAULTS: Partial<Record<CheckId, CheckId>> = {
  'request-default-value-changed': 'request-parameter-default-changed',
  'request-default-value-added': 'request-parameter-default-added',
  'request-default-value-removed': 'request-parameter-default-removed',
};
const parameterDefault = (f: SchemaFinding): SchemaFinding => ({ ...f, check: PARAMETER_DEFAULTS[f.check] ?? f.check });

/** The default of a value a client must send never applies: not reported. */
const dropDefault =
  (required: boolean, next?: (f: SchemaFinding) => SchemaFinding) =>
  (f: SchemaFinding): SchemaFinding | undefined =>
    required && f.path === '' && isDefault(f) ? undefined : next ? next(f) : f;

export function compareParameters(
  d: OperationDiff,
  ops: [Node, Node],
  items: [Node, Node],
  paths: [string, string],
): void {
  const before = parameters(items[0], ops[0], paths[0]);
  const after = parameters(items[1], ops[1], paths[1]);
  for (const [key, o] of before) {
    const n = after.get(key);
    const label = `${o['in']} parameter \`${o['name']}\``;
    if (!n) {
      d.add('request-parameter-removed', `${label} removed`);
      continue;
    }
    const location: SchemaLocation = { where: 'parameter', in: String(n['in']), name: String(n['name']) };
    if (!d.inverted && o['required'] !== true && n['required'] === true)
      d.add('request-parameter-became-required', `${label} became required`);
    if (o['deprecated'] !== true && n['deprecated'] === true)
      d.add('request-parameter-deprecated', `${label} deprecated`);
    const oldSchema = node(parameterSchema(o) ?? {});
    const newSchema = node(parameterSchema(n) ?? {});
    const required = n['required'] === true || n['in'] === 'path';
    const adjust = dropDefault(required, (f) =>
      parameterDefault(n['style'] === 'deepObject' ? deepObjectAdjust(f) : f),
    );
    d.schema(oldSchema, explodedArrayItems(oldSchema, n, newSchema) ?? newSchema, 'request', location, true, adjust);
  }
  if (d.inverted) return; // the API adds what it sends: nothing a receiver must supply
  for (const [key, n] of after) {
    if (before.has(key)) continue;
    const required = n['required'] === true;
    d.add(
      required ? 'new-required-request-parameter' : 'new-optional-request-parameter',
      `${required ? 'required' : 'optional'} ${n['in']} parameter \`${n['name']}\` added`,
    );
  }
}

export function compareRequestBody(d: OperationDiff, oldOp: Node, newOp: Node): void {
  const o = oldOp['requestBody'] === undefined ? undefined : node(oldOp['requestBody']);
  const n = newOp['requestBody'] === undefined ? undefined : node(newOp['requestBody']);
  if (!n) {
    if (o) d.add('request-body-removed', 'request body removed');
    return;
  }
  if (!o) {
    if (d.inverted) return;
    const required = n['required'] === true;
    return d.add(
      required ? 'request-body-added-required' : 'request-body-added-optional',
      `${required ? 'required' : 'optional'} request body added`,
    );
  }
  if (!d.inverted && o['required'] !== true && n['required'] === true)
    d.add('request-body-became-required', 'request body became required');
  const newContent = node(n['content']);
  for (const [media, oldMedia] of Object.entries(node(o['content']))) {
    if (!(media in newContent)) {
      d.add('request-media-type-removed', `request media type \`${media}\` removed`);
      continue;
    }
    const location: SchemaLocation = { where: 'request-body', media };
    const oldSchema = schemaOf(node(oldMedia));
    const newSchema = schemaOf(node(newContent[media]));
    d.schema(oldSchema, newSchema, 'request', location, !isJsonMedia(media), dropDefault(n['required'] === true));
  }
}

/** Response headers, matched case-insensitively: a required one removed or made optional breaks its readers. */
function compareHeaders(d: OperationDiff, status: string, oldResponse: Node, newResponse: Node): void {
  const lower = (headers: Node) =>
    new Map(Object.entries(headers).map(([name, header]) => [name.toLowerCase(), { name, header: node(header) }]));
  const after = lower(node(newResponse['headers']));
  for (const [key, { name, header }] of lower(node(oldResponse['headers']))) {
    const now = after.get(key);
    const required = header['required'] === true;
    if (!now) {
      d.add(
        required ? 'response-required-header-removed' : 'response-optional-header-removed',
        `${required ? 'required' : 'optional'} response header \`${name}\` removed for status ${status}`,
      );
      continue;
    }
    if (required && now.header['required'] !== true)
      d.add('response-header-became-optional', `response header \`${name}\` became optional for status ${status}`);
    d.schema(
      parameterSchema(header) ?? {},
      parameterSchema(now.header) ?? {},
      'response',
      { where: 'response-header', name: now.name, status },
      true,
    );
  }
}

export function compareResponses(d: OperationDiff, oldOp: Node, newOp: Node): void {
  const before = node(oldOp['responses']);
  const after = node(newOp['responses']);
  for (const [status, oldResponse] of Object.entries(before)) {
    if (!(status in after)) {
      if (isSuccess(status)) {
        if (d.inverted)
          d.add('webhook-success-status-removed', `the receiver's success response with status ${status} removed`);
        else d.add('response-success-status-removed', `the success response with status ${status} removed`);
      }
      continue;
    }
    if (!d.inverted) compareHeaders(d, status, node(oldResponse), node(after[status]));
    const newContent = node(node(after[status])['content']);
    for (const [media, oldMedia] of Object.entries(node(node(oldResponse)['content']))) {
      if (!(media in newContent)) {
        d.add('response-media-type-removed', `response media type \`${media}\` removed for status ${status}`);
        continue;
      }
      const location: SchemaLocation = { where: 'response-body', media, status };
      d.schema(schemaOf(node(oldMedia)), schemaOf(node(newContent[media])), 'response', location, !isJsonMedia(media));
    }
  }
  if (d.inverted) return;
  for (const status of Object.keys(after)) {
    if (!(status in before) && isSuccess(status))
      d.add('response-success-status-added', `the success response with status ${status} added`);
  }
}
