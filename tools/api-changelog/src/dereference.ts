import { ChangelogInputError } from './model';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = any;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Thrown when a $ref leaves the file: the loader then falls back to json-schema-ref-parser. */
export class NonLocalRefError extends Error {}

/** Objects that more than one place points to ($ref targets), per dereferenced document: only they can repeat or cycle. */
export const sharedObjects = new WeakMap<object, WeakSet<object>>();

/** Component schemas by the object their `$ref`s now point to: the name identifies a oneOf/anyOf alternative. */
export const schemaNames = new WeakMap<object, string>();

const COMPONENT_SCHEMA = '#/components/schemas/';

/** A quick look at the text: no `$ref` that starts with anything but `#` (a false positive only costs the slow path). */
export const mayHaveExternalRefs = (text: string) => /\$ref['"]?\s*:\s*['"]?[^#\s'"]/.test(text);

const decode = (token: string) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * Replaces every local `{$ref: "#/..."}` by the object it points to, in place, keeping one shared object per
 * target (so cycles become cycles of objects, as json-schema-ref-parser's `circular: true` does). Several times
 * faster than the general resolver on large documents, which only runs when a $ref leaves the file.
 */
export function dereferenceLocal(root: Node, file: string): Node {
  const resolved = new Map<string, Node>();
  const visited = new WeakSet<object>();
  const shared = new WeakSet<object>();

  const lookup = (ref: string): Node => {
    let current: Node = root;
    const tokens = ref === '#' || ref === '#/' ? [] : ref.slice(2).split('/').map(decode);
    for (const token of tokens) {
      if (isObject(current) && typeof current['$ref'] === 'string') current = visit(current);
      if (!isObject(current) || !(token in current)) {
        throw new ChangelogInputError(
          `${file}: unresolved $ref (${JSON.stringify(ref)}: token ${JSON.stringify(token)} does not exist)`,
        );
      }
      current = (current as Node)[token];
    }
    return current;
  };

  function visit(value: Node): Node {
    const ref = value['$ref'];
    if (typeof ref === 'string') {
      if (!ref.startsWith('#')) throw new NonLocalRefError(ref);
      if (resolved.has(ref)) return resolved.get(ref);
      const target = lookup(ref);
      resolved.set(ref, target);
      const result = isObject(target) ? visit(target) : target;
      if (isObject(result)) shared.add(result);
      if (isObject(result) && ref.startsWith(COMPONENT_SCHEMA))
        schemaNames.set(result, decode(ref.slice(COMPONENT_SCHEMA.length)));
      resolved.set(ref, result);
      return result;
    }
    if (visited.has(value)) return value;
    visited.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (isObject(item)) {
          const next = visit(item);
          if (next !== item) value[i] = next;
        }
      }
    } else {
      for (const key in value) {
        const child = value[key];
        if (isObject(child)) {
          const next = visit(child);
          if (next !== child) value[key] = next;
        }
      }
    }
    return value;
  }

  const result = isObject(root) ? visit(root) : root;
  if (isObject(result)) sharedObjects.set(result, shared);
  return result;
}
