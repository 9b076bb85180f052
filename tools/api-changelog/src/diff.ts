import { CheckId } from './checks';
import { change } from './describe';
import { ChangeGroup, ClassifiedChange, OpenApiDocument } from './model';
import { sharedObjects } from './dereference';
import { SchemaDiffer } from './schema-diff';
import { compareParameters, compareRequestBody, compareResponses, Node, node, OperationDiff } from './operation-diff';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** `/scans/{scanId}` and `/scans/{id}` are the same route: path parameters match by position. */
const routeKey = (path: string) => path.replace(/\{[^}]*\}/g, '{}');
const methodsOf = (item: Node) => Object.keys(item).filter((key) => (METHODS as readonly string[]).includes(key));

/** Additions that area C reports inside the breaking "success response added" entry of the same operation. */
const BUNDLED: ReadonlySet<CheckId> = new Set<CheckId>([
  'new-optional-request-parameter',
  'new-optional-request-property',
  'request-body-added-optional',
  'response-property-added',
]);

function anonymousAllowed(operation: Node, doc: Node): boolean {
  const security = Array.isArray(operation['security'])
    ? operation['security']
    : Array.isArray(doc['security'])
      ? doc['security']
      : [];
  return security.length === 0 || security.some((requirement: unknown) => Object.keys(node(requirement)).length === 0);
}

/**
 * Area C lists a new success status together with the optional request and response properties added to the
 * same operation as one breaking change; without a new status, response additions are informational only.
 */
function bundle(changes: ClassifiedChange[]): ClassifiedChange[] {
  const statusAdded = changes.filter((c) => c.check === 'response-success-status-added');
  if (statusAdded.length === 0) return changes.filter((c) => c.check !== 'response-property-added');
  const bundled = changes.filter((c) => BUNDLED.has(c.check as CheckId));
  const merged: ClassifiedChange = {
    ...statusAdded[0],
    description: [...statusAdded, ...bundled].map((c) => c.description).join('; '),
  };
  const rest = changes.filter((c) => c.check !== 'response-success-status-added' && !BUNDLED.has(c.check as CheckId));
  return [merged, ...rest];
}

interface Side {
  doc: Node;
  item: Node;
  op: Node;
  path: string;
}

function compareOperation(differ: SchemaDiffer, before: Side, after: Side, method: string): ClassifiedChange[] {
  const d = new OperationDiff(differ, { method, path: after.path });
  if (before.op['deprecated'] !== true && after.op['deprecated'] === true)
    d.add('endpoint-deprecated', 'endpoint deprecated');
  if (anonymousAllowed(before.op, before.doc) && !anonymousAllowed(after.op, after.doc))
    d.add('security-added', 'authentication now required');
  compareParameters(d, [before.op, after.op], [before.item, after.item], [before.path, after.path]);
  compareRequestBody(d, before.op, after.op);
  compareResponses(d, before.op, after.op);
  return [...bundle(d.changes), ...compareCallbacks(differ, before, after, method)];
}

/**
 * A webhook or callback is an operation the API calls: its request is what a receiver reads and its responses
 * what a receiver sends, so it is compared with the directions swapped (`OperationDiff.inverted`).
 */
function compareOutgoing(
  differ: SchemaDiffer,
  label: string,
  before: Node,
  after: Node | undefined,
): ClassifiedChange[] {
  const changes: ClassifiedChange[] = [];
  for (const method of methodsOf(before)) {
    const oldOp = node(before[method]);
    const newOp = after && method in after ? node(after[method]) : undefined;
    if (!newOp) {
      changes.push(change({ method, path: label }, 'webhook-removed', 'webhook removed'));
      continue;
    }
    const d = new OperationDiff(differ, { method, path: label }, true);
    if (oldOp['deprecated'] !== true && newOp['deprecated'] === true) d.add('webhook-deprecated', 'webhook deprecated');
    compareParameters(d, [oldOp, newOp], [before, node(after)], [label, label]);
    compareRequestBody(d, oldOp, newOp);
    compareResponses(d, oldOp, newOp);
    changes.push(...d.changes.filter((c) => c.check !== 'response-property-added'));
  }
  return changes;
}

function compareCallbacks(differ: SchemaDiffer, before: Side, after: Side, method: string): ClassifiedChange[] {
  const changes: ClassifiedChange[] = [];
  const newCallbacks = node(after.op['callbacks']);
  for (const [name, callback] of Object.entries(node(before.op['callbacks']))) {
    const now = node(newCallbacks[name]);
    for (const [expression, item] of Object.entries(node(callback))) {
      const label = `${method.toUpperCase()} ${after.path} callback ${name} ${expression}`;
      changes.push(
        ...compareOutgoing(differ, label, node(item), expression in now ? node(now[expression]) : undefined),
      );
    }
  }
  return changes;
}

function compareWebhooks(differ: SchemaDiffer, oldDoc: Node, newDoc: Node): ClassifiedChange[] {
  const after = node(newDoc['webhooks']);
  return Object.entries(node(oldDoc['webhooks'])).flatMap(([name, item]) =>
    compareOutgoing(differ, `webhook ${name}`, node(item), name in after ? node(after[name]) : undefined),
  );
}

const GROUP_ORDER: Record<ChangeGroup, number> = { breaking: 0, 'potentially-breaking': 1 };

/** The change log between two dereferenced documents: breaking first, then in the order of the old document. */
export function diffDocuments(oldDoc: OpenApiDocument, newDoc: OpenApiDocument): ClassifiedChange[] {
  const shared = [sharedObjects.get(oldDoc), sharedObjects.get(newDoc)];
  const differ = new SchemaDiffer(shared[0] && shared[1] ? [shared[0], shared[1]] : undefined);
  const newRoutes = new Map(
    Object.entries(node(newDoc.paths)).map(([path, item]) => [routeKey(path), { path, item: node(item) }]),
  );
  const changes: ClassifiedChange[] = [];
  for (const [oldPath, rawItem] of Object.entries(node(oldDoc.paths))) {
    const oldItem = node(rawItem);
    const target = newRoutes.get(routeKey(oldPath));
    for (const method of methodsOf(oldItem)) {
      const oldOp = node(oldItem[method]);
      const newOp = target && method in target.item ? node(target.item[method]) : undefined;
      if (!target || !newOp) {
        const deprecated = oldOp['deprecated'] === true;
        changes.push(
          change(
            { method, path: oldPath },
            deprecated ? 'deprecated-endpoint-removed' : 'endpoint-removed',
            deprecated ? 'deprecated endpoint removed' : 'endpoint removed',
          ),
        );
        continue;
      }
      const docs = [oldDoc as unknown as Node, newDoc as unknown as Node];
      changes.push(
        ...compareOperation(
          differ,
          { doc: docs[0], item: oldItem, op: oldOp, path: oldPath },
          { doc: docs[1], item: target.item, op: newOp, path: target.path },
          method,
        ),
      );
    }
  }
  changes.push(...compareWebhooks(differ, oldDoc as unknown as Node, newDoc as unknown as Node));
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
