import { CHECKS, CheckId } from '../src/checks';
import type { ClassifiedChange } from '../src/model';
import type { Anchor, Case, Rule } from './oasdiff-cases';

/**
 * Which of our changes answer an oasdiff case. An oasdiff rule id names a side (request, response) and a subject
 * (a keyword, a bound, a property's existence...); our change answers it when its check is about the same subject
 * on the same side. So a fixture that also changes something else is not credited (nor blamed) for it.
 */

/** The families the goal is measured over; `policy` (sunset dates, stability levels) and `extension` are not. */
export type Family = 'core' | 'openapi-3.1' | 'policy' | 'extension';

const ID_FAMILIES: Array<[RegExp, Family]> = [
  [/sunset|stability/, 'policy'],
  [/x-extensible-enum/, 'extension'],
  [
    /const|-if-|-then-|-else-|dependent-|contains|prefix-items|unevaluated|pattern-propert|property-names|content-(schema|media-type|encoding)|list-of-types|webhook/,
    'openapi-3.1',
  ],
];

export function familyOfRule(id: string): Family {
  return ID_FAMILIES.find(([re]) => re.test(id))?.[1] ?? 'core';
}

/** Empty-result cases: by the rules of their check, or (for "nothing at all") by the test file. */
export function familyOfCase(c: Case, rules: Map<string, Rule>): Family {
  // oasdiff's deprecation-policy fixtures (sunset dates, stability levels) test the policy, whatever the rule.
  if (/^data\/(param-)?deprecation\//.test(c.base) || /^data\/(param-)?deprecation\//.test(c.revision)) return 'policy';
  if (c.expect.type === 'id' || c.expect.type === 'not-id') return familyOfRule(c.expect.id);
  if (c.expect.type === 'check-silent') {
    const check = c.expect.check;
    const ids = [...rules.values()].filter((r) => r.check === check).map((r) => familyOfRule(r.id));
    if (/Sunset|Stability/.test(check)) return 'policy';
    return ids.includes('openapi-3.1') ? 'openapi-3.1' : 'core';
  }
  return /stability|sunset|alpha/i.test(`${c.file} ${c.test}`) ? 'policy' : 'core';
}

type Side = 'request' | 'response';

const ours = (prefix: RegExp): CheckId[] => (Object.keys(CHECKS) as CheckId[]).filter((id) => prefix.test(id));
const sideOf = (check: string): Side | undefined =>
  /^(request-|new-.*request)/.test(check) ? 'request' : /^response-/.test(check) ? 'response' : undefined;

/**
 * Subjects: a pattern over oasdiff ids, and our checks about the same subject. Order matters (first match wins).
 * `bound` narrows bounds checks to the keyword the id names (our descriptions quote it).
 */
interface Subject {
  id: RegExp;
  checks: CheckId[] | 'side';
  bound?: (id: string) => string;
  only?: (c: ClassifiedChange) => boolean;
}

/** "the type of ... changed from `string` to `string | null`": the types differ only by null. */
function nullOnly(c: ClassifiedChange): boolean {
  const m = /changed from `([^`]*)` to `([^`]*)`/.exec(c.description);
  if (!m || !/type-changed/.test(c.check)) return false;
  const set = (text: string) =>
    text
      .split(' | ')
      .filter((t) => t !== 'null')
      .sort()
      .join('|');
  return set(m[1] as string) === set(m[2] as string);
}

const SUBJECTS: Subject[] = [
  { id: /webhook/, checks: ours(/webhook/) },
  { id: /^new-optional-request-.*parameter/, checks: ['new-optional-request-parameter'] },
  { id: /^new-required-request-.*parameter/, checks: ['new-required-request-parameter'] },
  { id: /^new-optional-request-property/, checks: ['new-optional-request-property'] },
  { id: /^new-required-request-property/, checks: ['new-required-request-property'] },
  { id: /content-schema/, checks: ours(/content-schema/) },
  { id: /content-(media-type|encoding)/, checks: ours(/content-encoding/) },
  { id: /read-only|write-only/, checks: ours(/became-(read|write)-only/) },
  { id: /pattern-propert/, checks: ours(/pattern-propert/) },
  { id: /property-names/, checks: ours(/property-names/) },
  // We compare tuple positions as values: what oasdiff calls a prefixItems change is a change at `[i]`.
  {
    id: /prefix-items/,
    checks: ours(/type|format|enum|const|bounds|pattern|propert/),
    only: (c) => /`[^`]*\[\d+\]/.test(c.description),
  },
  // A scalar query parameter generalised into an exploded array whose items accept less: we report what the items
  // refuse (a pattern, an enum, a bound), oasdiff a type change.
  { id: /^request-parameter-type-changed$/, checks: ours(/^request-(type|format|enum|const|bounds|pattern)/) },
  { id: /unevaluated/, checks: ours(/unevaluated/) },
  { id: /dependent-required/, checks: ours(/dependent-required/) },
  { id: /dependent-schema/, checks: ours(/dependent-schema/) },
  { id: /-(if|then|else)-/, checks: ours(/conditional/) },
  {
    id: /(min|max)-contains/,
    checks: ours(/bounds/),
    bound: (id) => (/min-/.test(id) ? 'minContains' : 'maxContains'),
  },
  { id: /contains/, checks: ours(/contains/) },
  { id: /const/, checks: ours(/const|enum/) },
  // We do not compare discriminators themselves; what a discriminator change does to the alternatives is a variant change.
  { id: /discriminator/, checks: [] },
  { id: /one-of|any-of|all-of/, checks: 'side' },
  // oasdiff tells a value becoming (not) nullable apart from its type changing; our type checks do both.
  { id: /nullable/, checks: ours(/type-changed/), only: (c) => nullOnly(c) },
  { id: /list-of-types|type/, checks: ours(/type|format|variant/), only: (c) => !nullOnly(c) },
  { id: /enum/, checks: ours(/enum|const/) },
  { id: /pattern/, checks: ours(/pattern/) },
  { id: /became-required-with-default/, checks: ours(/became-required/) },
  { id: /default/, checks: ours(/default|new-.*parameter|new-.*property/) },
  {
    id: /(min|max)(-length|-items)?-(increased|decreased|set|unset)|exclusive-(min|max)/,
    checks: ours(/bounds/),
    bound: (id) => {
      const exclusive = /exclusive/.test(id);
      const m = /(min|max)(-length|-items)?-/.exec(id.replace('exclusive-', '')) as RegExpExecArray;
      const base = `${m[1] as string}${m[2] === '-length' ? 'Length' : m[2] === '-items' ? 'Items' : 'imum'}`;
      return exclusive ? `exclusive${base[0]?.toUpperCase()}${base.slice(1)}` : base;
    },
  },
  { id: /media-?type/, checks: ours(/media-type|body/) },
  { id: /success-status|response-status/, checks: ours(/status/) },
  { id: /header/, checks: ours(/header/) },
  { id: /request-body-(removed|became|added)/, checks: ours(/request-body/) },
  { id: /parameter/, checks: ours(/parameter/) },
  { id: /^api-.*removed|^endpoint-removed/, checks: ours(/endpoint/) },
  { id: /deprecat|reactivated/, checks: ours(/deprecat/) },
  { id: /security/, checks: ours(/security/) },
  { id: /^api-|^endpoint-/, checks: ours(/endpoint/) },
  { id: /became-(required|optional)/, checks: ours(/became-(required|optional)/) },
  { id: /propert|write-only|read-only/, checks: ours(/propert/) },
];

/** The side an oasdiff id is about; parameters, headers in requests and request bodies are what a client sends. */
const sideOfId = (id: string): Side | undefined =>
  /^(request-|new-(required|optional)-request)/.test(id)
    ? 'request'
    : /^(response-|optional-response|required-response)/.test(id)
      ? 'response'
      : undefined;

/** Something appearing or disappearing; anything else is a change. An addition never answers a removal. */
type Action = 'add' | 'remove' | 'change';
const actionOfId = (id: string): Action =>
  /-(removed|deleted|unset)$/.test(id) ? 'remove' : /-(added|set)$|^new-/.test(id) ? 'add' : 'change';
const actionOfCheck = (check: string): Action =>
  /-removed$|-removed-|unrestricted|relaxed/.test(check)
    ? 'remove'
    : /-added$|^new-|-added-/.test(check)
      ? 'add'
      : 'change';
const conflicting = (a: Action, b: Action) => (a === 'add' && b === 'remove') || (a === 'remove' && b === 'add');

const route = (path: string) => path.replace(/\{[^}]*\}/g, '{}');
const atAnchor = (c: ClassifiedChange, anchors: Anchor[]) =>
  anchors.length === 0 ||
  anchors.some(
    (a) =>
      (a.operation === undefined || a.operation.toUpperCase() === c.method) &&
      (a.path === undefined || route(a.path) === route(c.path) || c.path.startsWith('webhook')),
  );

/**
 * `request-body-type-changed` is about the body's own schema, `request-property-type-changed` about a property in
 * it: our descriptions say `the request body` for the first and `property \`x\`` for the second.
 */
function inScope(id: string, c: ClassifiedChange): boolean {
  const bodyLevel = /^(request|response)-body-(removed|became-(required|optional)|added|media-?type)/.test(id);
  // The body's own schema: `the request body`, or what sits right under it (`[0]`, `(then)`).
  if (/^(request|response)-body-/.test(id) && !bodyLevel)
    return /\bthe (request|response) body\b|property `[[(]/.test(c.description);
  if (/^(request|response)-property-/.test(id)) return /property `/.test(c.description);
  return true;
}

/** Our changes that answer an oasdiff rule id (undefined: no subject of ours covers it). */
export function relevantToId(
  id: string,
  changes: ClassifiedChange[],
  anchors: Anchor[] = [],
): ClassifiedChange[] | undefined {
  const subject = SUBJECTS.find((s) => s.id.test(id));
  if (!subject) return undefined;
  const side = sideOfId(id);
  const bound = subject.bound?.(id);
  return changes.filter((c) => {
    if (side !== undefined && sideOf(c.check) !== undefined && sideOf(c.check) !== side) return false;
    if (subject.checks !== 'side' && !(subject.checks as string[]).includes(c.check)) return false;
    if (conflicting(actionOfId(id), actionOfCheck(c.check)) || !atAnchor(c, anchors)) return false;
    if (subject.only && !subject.only(c)) return false;
    if (!inScope(id, c)) return false;
    return bound === undefined || c.description.includes(`\`${bound}\``);
  });
}

/** Our changes that answer a case: by its id, by every id of its silent check, or (nothing expected) all of them. */
export function relevantToCase(c: Case, rules: Map<string, Rule>, changes: ClassifiedChange[]): ClassifiedChange[] {
  if (c.expect.type === 'nothing') return changes;
  if (c.expect.type === 'id') return relevantToId(c.expect.id, changes, c.expect.anchors) ?? [];
  if (c.expect.type === 'not-id') return relevantToId(c.expect.id, changes) ?? changes;
  const check = c.expect.check;
  const found = new Set<ClassifiedChange>();
  for (const rule of rules.values())
    if (rule.check === check) for (const change of relevantToId(rule.id, changes) ?? changes) found.add(change);
  return [...found];
}
