import { isPlainObject } from '@acme/platform-errors';
import { isStorableText } from './text';

/** Filter model of a rule (docs/rum-ingestion.md#rules): an OR of AND-groups of conditions. */
export const OPERATORS = ['IN', 'NOT IN', 'CONTAINS', 'NOT CONTAINS'] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Condition {
  key: string;
  oper: Operator;
  vals: string[];
}

export type Filters = Condition[][];

/** Bounds the spec leaves open; documented in apps/rum-ingestion/README.md. */
export const FILTER_LIMITS = {
  maxGroups: 20,
  maxConditionsPerGroup: 20,
  maxVals: 200,
  maxValLength: 1024,
  maxKeyLength: 128,
} as const;

/** Dotted path of identifiers; prototype-ish segments are refused so a key can only address event data. */
const KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/** Returns the first problem with `filters`, or `undefined` when they are a valid non-empty OR of AND-groups. */
export function findFiltersProblem(filters: unknown): string | undefined {
  if (!Array.isArray(filters)) return 'filters must be an array of groups';
  if (filters.length === 0) return 'filters must have at least one group';
  if (filters.length > FILTER_LIMITS.maxGroups) return `filters may have at most ${FILTER_LIMITS.maxGroups} groups`;
  for (const [g, group] of filters.entries()) {
    if (!Array.isArray(group)) return `filters[${g}] must be an array of conditions`;
    if (group.length === 0) return `filters[${g}] must not be empty`;
    if (group.length > FILTER_LIMITS.maxConditionsPerGroup)
      return `filters[${g}] may have at most ${FILTER_LIMITS.maxConditionsPerGroup} conditions`;
    for (const [c, condition] of group.entries()) {
      const where = `filters[${g}][${c}]`;
      if (!isPlainObject(condition)) return `${where} must be an object`;
      const extra = Object.keys(condition).find((name) => name !== 'key' && name !== 'oper' && name !== 'vals');
      if (extra) return `${where}.${extra} is not allowed`;
      const { key, oper, vals } = condition;
      if (typeof key !== 'string' || key.length > FILTER_LIMITS.maxKeyLength || !KEY_PATTERN.test(key))
        return `${where}.key must be a dotted field path`;
      if (key.split('.').some((segment) => FORBIDDEN_SEGMENTS.has(segment)))
        return `${where}.key must be a dotted field path`;
      if (typeof oper !== 'string' || !(OPERATORS as readonly string[]).includes(oper))
        return `${where}.oper must be one of ${OPERATORS.join(', ')}`;
      if (!Array.isArray(vals) || vals.length === 0 || vals.length > FILTER_LIMITS.maxVals)
        return `${where}.vals must have 1 to ${FILTER_LIMITS.maxVals} strings`;
      if (vals.some((val) => typeof val !== 'string' || val.length > FILTER_LIMITS.maxValLength))
        return `${where}.vals must be strings of at most ${FILTER_LIMITS.maxValLength} characters`;
      if (vals.some((val) => !isStorableText(val)))
        return `${where}.vals must not contain NUL or unpaired surrogate characters`;
      if ((oper === 'CONTAINS' || oper === 'NOT CONTAINS') && vals.some((val) => val === ''))
        return `${where}.vals must not contain an empty string for ${oper}`;
    }
  }
  return undefined;
}

/** A copy holding only the three known fields, in a stable order (what is stored and returned). */
export function normalizeFilters(filters: Filters): Filters {
  return filters.map((group) => group.map(({ key, oper, vals }) => ({ key, oper, vals: [...vals] })));
}
