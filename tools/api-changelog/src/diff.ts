import { CheckId } from './checks';
import { change, describeFinding, OperationRef, SchemaLocation } from './describe';
import { ChangeGroup, ClassifiedChange, OpenApiDocument } from './model';
import { sharedObjects } from './dereference';
import { Direction, SchemaDiffer } from './schema-diff';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const node = (value: unknown): Node => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : {});
const isSuccess = (status: string) => /^2(\d\d|XX)$/i.test(status);
/** `/scans/{scanId}` and `/scans/{id}` are the same route: path parameters match by position. */
const routeKey = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

/** Additions that area C reports inside the breaking "success response added" entry of the same operation. */
const BUNDLED: ReadonlySet<CheckId> = new Set<CheckId>(['new-optional-request-parameter', 'new-optional-request-property', 'request-body-added-optional', 'response-property-added']);

class OperationDiff {
  readonly changes: ClassifiedChange[] = [];

  constructor(
    private readonly differ: SchemaDiffer,
    private readonly op: OperationRef,
  ) {}

  add(check: CheckId, description: string): void {
    this.changes.push(change(this.op, check, description));
  }

  schema(oldSchema: unknown, newSchema: unknown, direction: Direction, location: SchemaLocation): void {
    for (const finding of this.differ.compare(oldSchema, newSchema, direction)) this.changes.push(describeFinding(this.op, finding, location));
  }
}

function parameters(item: Node, operation: Node, path: string): Map<string, Node> {
  const names = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const byKey = new Map<string, Node>();
  for (const raw of [...(Array.isArray(item['parameters']) ? item['parameters'] : []), ...(Array.isArray(operation['parameters']) ? operation['parameters'] : [])]) {
    const p = node(raw);
    const name = String(p['name']);
    const where = String(p['in']);
    const position = names.indexOf(name);
    const key = where === 'path' && position >= 0 ? `path#${position}` : `${where}:${where === 'header' ? name.toLowerCase() : name}`;
    byKey.set(key, p);
  }
  return byKey;
}

const parameterSchema = (p: Node): unknown => p['schema'] ?? Object.values(node(p['content'])).map((m) => node(m)['schema'])[0];

function anonymousAllowed(operation: Node, doc: Node): boolean {
  const security = Array.isArray(operation['security']) ? operation['security'] : Array.isArray(doc['security']) ? doc['security'] : [];
  return security.length === 0 || security.some((requirement: unknown) => Object.keys(node(requirement)).length === 0);
}

function compareParameters(d: OperationDiff, oldOp: Node, newOp: Node, oldItem: Node, newItem: Node, oldPath: string, newPath: string): void {
  const before = parameters(oldItem, oldOp, oldPath);
  const after = parameters(newItem, newOp, newPath);
  for (const [key, o] of before) {
    const n = after.get(key);
    const label = `${o['in']} parameter \`${o['name']}\``;
    if (!n) {
      d.add('request-parameter-removed', `${label} removed`);
      continue;
    }
    const location: SchemaLocation = { where: 'parameter', in: String(n['in']), name: String(n['name']) };
    if (o['required'] !== true && n['required'] === true) d.add('request-parameter-became-required', `${label} became required`);
    if (o['deprecated'] !== true && n['deprecated'] === true) d.add('request-parameter-deprecated', `${label} deprecated`);
    d.schema(parameterSchema(o), parameterSchema(n), 'request', location);
  }
  for (const [key, n] of after) {
    if (before.has(key)) continue;
    const required = n['required'] === true;
    d.add(required ? 'new-required-request-parameter' : 'new-optional-request-parameter', `${required ? 'required' : 'optional'} ${n['in']} parameter \`${n['name']}\` added`);
  }
}

function compareRequestBody(d: OperationDiff, oldOp: Node, newOp: Node): void {
  const o = oldOp['requestBody'] === undefined ? undefined : node(oldOp['requestBody']);
  const n = newOp['requestBody'] === undefined ? undefined : node(newOp['requestBody']);
  if (!n) {
    if (o) d.add('request-body-removed', 'request body removed');
    return;
  }
  if (!o) {
    const required = n['required'] === true;
    return d.add(required ? 'request-body-added-required' : 'request-body-added-optional', `${required ? 'required' : 'optional'} request body added`);
  }
  if (o['required'] !== true && n['required'] === true) d.add('request-body-became-required', 'request body became required');
  const newContent = node(n['content']);
  for (const [media, oldMedia] of Object.entries(node(o['content']))) {
    if (!(media in newContent)) {
      d.add('request-media-type-removed', `request media type \`${media}\` removed`);
      continue;
    }
    d.schema(node(oldMedia)['schema'], node(newContent[media])['schema'], 'request', { where: 'request-body', media });
  }
}

function compareResponses(d: OperationDiff, oldOp: Node, newOp: Node): void {
  const before = node(oldOp['responses']);
  const after = node(newOp['responses']);
  for (const [status, oldResponse] of Object.entries(before)) {
    if (!(status in after)) {
      if (isSuccess(status)) d.add('response-success-status-removed', `the success response with status ${status} removed`);
      continue;
    }
    const newContent = node(node(after[status])['content']);
    for (const [media, oldMedia] of Object.entries(node(node(oldResponse)['content']))) {
      if (!(media in newContent)) {
        d.add('response-media-type-removed', `response media type \`${media}\` removed for status ${status}`);
        continue;
      }
      d.schema(node(oldMedia)['schema'], node(newContent[media])['schema'], 'response', { where: 'response-body', media, status });
    }
  }
  for (const status of Object.keys(after)) {
    if (!(status in before) && isSuccess(status)) d.add('response-success-status-added', `the success response with status ${status} added`);
  }
}

/**
 * Area C lists a new success status together with the optional request and response properties added to the
 * same operation as one breaking change; without a new status, response additions are informational only.
 */
function bundle(changes: ClassifiedChange[]): ClassifiedChange[] {
  const statusAdded = changes.filter((c) => c.check === 'response-success-status-added');
  if (statusAdded.length === 0) return changes.filter((c) => c.check !== 'response-property-added');
  const bundled = changes.filter((c) => BUNDLED.has(c.check as CheckId));
  const merged: ClassifiedChange = { ...statusAdded[0], description: [...statusAdded, ...bundled].map((c) => c.description).join('; ') };
  const rest = changes.filter((c) => c.check !== 'response-success-status-added' && !BUNDLED.has(c.check as CheckId));
  return [merged, ...rest];
}

function compareOperation(differ: SchemaDiffer, docs: [Node, Node], items: [Node, Node], ops: [Node, Node], paths: [string, string], method: string): ClassifiedChange[] {
  const [oldOp, newOp] = ops;
  const d = new OperationDiff(differ, { method, path: paths[1] });
  if (oldOp['deprecated'] !== true && newOp['deprecated'] === true) d.add('endpoint-deprecated', 'endpoint deprecated');
  if (anonymousAllowed(oldOp, docs[0]) && !anonymousAllowed(newOp, docs[1])) d.add('security-added', 'authentication now required');
  compareParameters(d, oldOp, newOp, items[0], items[1], paths[0], paths[1]);
  compareRequestBody(d, oldOp, newOp);
  compareResponses(d, oldOp, newOp);
  return bundle(d.changes);
}

const GROUP_ORDER: Record<ChangeGroup, number> = { breaking: 0, 'potentially-breaking': 1 };

/** The change log between two dereferenced documents: breaking first, then in the order of the old document. */
export function diffDocuments(oldDoc: OpenApiDocument, newDoc: OpenApiDocument): ClassifiedChange[] {
  const shared = [sharedObjects.get(oldDoc), sharedObjects.get(newDoc)];
  const differ = new SchemaDiffer(shared[0] && shared[1] ? [shared[0], shared[1]] : undefined);
  const newRoutes = new Map(Object.entries(node(newDoc.paths)).map(([path, item]) => [routeKey(path), { path, item: node(item) }]));
  const changes: ClassifiedChange[] = [];
  for (const [oldPath, rawItem] of Object.entries(node(oldDoc.paths))) {
    const oldItem = node(rawItem);
    const target = newRoutes.get(routeKey(oldPath));
    for (const method of Object.keys(oldItem).filter((key) => (METHODS as readonly string[]).includes(key))) {
      const oldOp = node(oldItem[method]);
      const newOp = target && method in target.item ? node(target.item[method]) : undefined;
      if (!target || !newOp) {
        const deprecated = oldOp['deprecated'] === true;
        changes.push(change({ method, path: oldPath }, deprecated ? 'deprecated-endpoint-removed' : 'endpoint-removed', deprecated ? 'deprecated endpoint removed' : 'endpoint removed'));
        continue;
      }
      changes.push(...compareOperation(differ, [oldDoc as unknown as Node, newDoc as unknown as Node], [oldItem, target.item], [oldOp, newOp], [oldPath, target.path], method));
    }
  }
  const seen = new Set<string>();
  const unique = changes.filter((c) => {
    const key = `${c.group}|${c.kind}|${c.method}|${c.path}|${c.description}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  return unique
    .map((c, index) => ({ c, index }))
    .sort((a, b) => GROUP_ORDER[a.c.group] - GROUP_ORDER[b.c.group] || a.index - b.index)
    .map(({ c }) => c);
}
