import { schemaNames } from './dereference';
import { asSchema, isObject, Schema, typeSet } from './schema-model';

export const discriminatorOf = (schema: Schema): string | undefined =>
  isObject(schema['discriminator']) ? schema['discriminator']['propertyName'] : undefined;

type Identity = (alternative: Schema, discriminator: string | undefined) => string | undefined;

/**
 * What makes an alternative the same one in both versions, strongest first: its component name, its
 * discriminator value, its `title`, and (not an object or array) its types. An inline alternative moved into a
 * component keeps its types, so the weaker identities pair what the stronger ones left over.
 */
const IDENTITIES: Identity[] = [
  (alternative) => {
    const name = schemaNames.get(alternative);
    return name === undefined ? undefined : `component ${name}`;
  },
  (alternative, discriminator) => {
    const tag = discriminator === undefined ? undefined : asSchema(asSchema(alternative['properties'])[discriminator]);
    const values =
      tag === undefined
        ? undefined
        : tag['const'] !== undefined
          ? [tag['const']]
          : Array.isArray(tag['enum'])
            ? tag['enum']
            : undefined;
    return values ? `discriminator ${JSON.stringify([...values].sort())}` : undefined;
  },
  (alternative) => (typeof alternative['title'] === 'string' ? `title ${alternative['title']}` : undefined),
  (alternative) => {
    const types = typeSet(alternative);
    return types.length > 0 && !types.includes('object') && !types.includes('array')
      ? `types ${[...types].sort().join('|')}`
      : undefined;
  },
];

/**
 * Pairs the alternatives of two versions by identity (so reordering is no change), one identity at a time over
 * what is still unpaired, then the ones with no identity at all by their order among themselves; what is left
 * over was removed (old side) or added (new side).
 */
export function matchVariants(
  before: unknown[],
  after: unknown[],
  discriminatorBefore?: string,
  discriminatorAfter?: string,
) {
  const pairs: Array<[unknown, unknown]> = [];
  const matchedOld = new Set<number>();
  const matchedNew = new Set<number>();
  const keysOf = (list: unknown[], matched: Set<number>, identity: Identity, discriminator?: string) => {
    const keys = list.map((alt, i) => (matched.has(i) || !isObject(alt) ? undefined : identity(alt, discriminator)));
    // An identity two alternatives share identifies neither.
    return keys.map((key) => (key !== undefined && keys.indexOf(key) === keys.lastIndexOf(key) ? key : undefined));
  };
  const pair = (i: number, j: number) => {
    pairs.push([before[i], after[j]]);
    matchedOld.add(i);
    matchedNew.add(j);
  };
  // Alternatives some identity told apart: only the others can be paired by position.
  const identifiedOld = new Set<number>();
  const identifiedNew = new Set<number>();
  for (const identity of IDENTITIES) {
    const oldKeys = keysOf(before, matchedOld, identity, discriminatorBefore);
    const newKeys = keysOf(after, matchedNew, identity, discriminatorAfter);
    oldKeys.forEach((key, i) => key !== undefined && identifiedOld.add(i));
    newKeys.forEach((key, j) => key !== undefined && identifiedNew.add(j));
    newKeys.forEach((key, j) => {
      const i = key === undefined ? -1 : oldKeys.indexOf(key);
      if (i >= 0) pair(i, j);
    });
  }
  const oldRest = before.map((_, i) => i).filter((i) => !matchedOld.has(i) && !identifiedOld.has(i));
  const newRest = after.map((_, j) => j).filter((j) => !matchedNew.has(j) && !identifiedNew.has(j));
  for (let k = 0; k < Math.min(oldRest.length, newRest.length); k++) pair(oldRest[k] as number, newRest[k] as number);
  const addedItems = after.filter((_, j) => !matchedNew.has(j));
  return { pairs, removed: before.length - matchedOld.size, added: addedItems.length, addedItems };
}

/** Keywords an alternative may carry and still be only a type (`oneOf: [{type: string}, {type: integer}]`). */
const TYPE_ONLY = new Set(['type', 'format', 'nullable', 'title', 'description']);
export const bareTypes = (list: unknown[]): boolean =>
  list.length > 0 &&
  list.every((alt) => isObject(alt) && typeSet(alt).length > 0 && Object.keys(alt).every((k) => TYPE_ONLY.has(k)));

/**
 * A value that becomes a `oneOf`/`anyOf` of alternatives (its properties moved into them), or stops being one:
 * the keyword on one side only, not a bare list of types (those are compared as type sets). Returns the
 * alternatives, the plain version, and whether the plain one is the old one.
 */
export function wrapping(
  o: Schema,
  n: Schema,
): { keyword: 'oneOf' | 'anyOf'; alternatives: unknown[]; wrapped: boolean } | undefined {
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const [a, b] = [o[keyword], n[keyword]];
    if (Array.isArray(a) === Array.isArray(b)) continue;
    const alternatives = (Array.isArray(a) ? a : b) as unknown[];
    const plain = Array.isArray(a) ? n : o;
    if (
      alternatives.length === 0 ||
      bareTypes(alternatives) ||
      Array.isArray(plain['oneOf']) ||
      Array.isArray(plain['anyOf'])
    )
      return undefined;
    return { keyword, alternatives, wrapped: Array.isArray(b) };
  }
  return undefined;
}
