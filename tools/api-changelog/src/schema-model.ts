import type { CheckId } from './checks';

/** A difference found inside one schema; `path` is the property path from the compared root ('' = the root). */
export interface SchemaFinding {
  check: CheckId;
  path: string;
  from?: string;
  to?: string;
  /** Whether a removed or added property is required (in the old or the new document). */
  required?: boolean;
  /** Bound name (`maxLength`), enum value, or `oneOf`/`anyOf`. */
  detail?: string;
}

export type Direction = 'request' | 'response';

/**
 * How a value is compared. `request` values are what a client sends (narrowing breaks it), `response` values what
 * it reads (widening breaks it). `text`: the value travels as text (parameters, headers, non-JSON bodies), where a
 * string can carry any scalar's or structure's text, so a change to `string` cannot refuse or surprise anything.
 */
export interface Context {
  direction: Direction;
  text: boolean;
}

export type Compare = (oldValue: unknown, newValue: unknown, context: Context) => SchemaFinding[];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Schema = Record<string, any>;

export const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const asSchema = (value: unknown): Schema => (isObject(value) ? value : {});
export const has = (schema: Schema, key: string) =>
  Object.prototype.hasOwnProperty.call(schema, key) && schema[key] !== undefined;

/** `scans` + `[].id` = `scans[].id`; `a` + `b` = `a.b`; `data` + `(then).x` = `data(then).x`. */
export function joinPath(parent: string, child: string): string {
  if (child === '') return parent;
  if (parent === '') return child;
  return child.startsWith('[') || child.startsWith('(') ? `${parent}${child}` : `${parent}.${child}`;
}

/** Findings of a sub-schema, moved under `marker` (`[]`, `*`, `(then)`, `[0]`...). */
export const under = (marker: string, findings: SchemaFinding[]): SchemaFinding[] =>
  findings.map((f) => ({ ...f, path: joinPath(marker, f.path) }));

export const show = (value: unknown) =>
  value === undefined ? 'none' : typeof value === 'string' ? value : JSON.stringify(value);

/** The types a schema allows: `type` (a 3.1 array or a string) plus `null` for a 3.0 `nullable`. */
export function typeSet(schema: Schema): string[] {
  const raw = schema['type'];
  const types: string[] = Array.isArray(raw) ? [...raw] : typeof raw === 'string' ? [raw] : [];
  if (types.length > 0 && schema['nullable'] === true && !types.includes('null')) types.push('null');
  return types;
}
