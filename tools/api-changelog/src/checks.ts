import { ChangeGroup, ChangeKind } from './model';

export interface CheckDefinition {
  /** `info` checks never appear on their own: only inside a success-status bundle (area C). */
  group: ChangeGroup | 'info';
  kind: ChangeKind;
  summary: string;
}

const check = (group: CheckDefinition['group'], kind: ChangeKind, summary: string): CheckDefinition => ({
  group,
  kind,
  summary,
});

/**
 * Every check the diff runs, with its group. The README table is this table (a test keeps them equal).
 * Severities follow oasdiff, made stricter where area C is (request properties removed, success status added).
 */
export const CHECKS = {
  'endpoint-removed': check('breaking', 'Removed', 'An operation that was not deprecated is removed'),
  'deprecated-endpoint-removed': check(
    'potentially-breaking',
    'Removed',
    'An operation that was already deprecated is removed',
  ),
  'endpoint-deprecated': check('potentially-breaking', 'Deprecated', 'An operation is marked deprecated'),
  'security-added': check(
    'breaking',
    'Changed',
    'An operation that accepted anonymous calls now requires a security scheme',
  ),
  'response-success-status-removed': check('breaking', 'Removed', 'A 2xx response status of an operation is removed'),
  'response-success-status-added': check(
    'breaking',
    'Added',
    'A 2xx response status is added; the optional request parameters/properties and response properties added to the same operation are reported with it as one breaking change (area C)',
  ),
  'response-media-type-removed': check('breaking', 'Removed', 'A media type of a response is removed'),
  'request-body-removed': check('breaking', 'Removed', 'The request body of an operation is removed'),
  'request-body-added-required': check('breaking', 'Added', 'A required request body is added'),
  'request-body-added-optional': check('potentially-breaking', 'Added', 'An optional request body is added'),
  'request-body-became-required': check('breaking', 'Changed', 'The request body becomes required'),
  'request-media-type-removed': check('breaking', 'Removed', 'A media type of the request body is removed'),
  'request-parameter-removed': check('breaking', 'Removed', 'A path, query, header or cookie parameter is removed'),
  'new-required-request-parameter': check('breaking', 'Added', 'A required parameter is added'),
  'new-optional-request-parameter': check('potentially-breaking', 'Added', 'An optional parameter is added'),
  'request-parameter-became-required': check('breaking', 'Changed', 'An optional parameter becomes required'),
  'request-parameter-deprecated': check('potentially-breaking', 'Deprecated', 'A parameter is marked deprecated'),
  'request-property-removed': check('breaking', 'Removed', 'A request property (at any depth) is removed (area C)'),
  'new-required-request-property': check('breaking', 'Added', 'A required request property is added'),
  'new-optional-request-property': check(
    'potentially-breaking',
    'Added',
    'An optional request property is added (area C)',
  ),
  'request-property-became-required': check('breaking', 'Changed', 'An optional request property becomes required'),
  'request-property-deprecated': check('potentially-breaking', 'Deprecated', 'A request property is marked deprecated'),
  'request-property-became-read-only': check(
    'potentially-breaking',
    'Changed',
    'A request property becomes `readOnly`: clients should stop sending it, and the server may ignore or refuse it',
  ),
  'response-property-became-write-only': check(
    'potentially-breaking',
    'Changed',
    'A response property becomes `writeOnly`: the server should stop returning it',
  ),
  'request-type-changed': check(
    'breaking',
    'Changed',
    'A request value (parameter or property) no longer accepts a type it accepted (incl. null)',
  ),
  'request-enum-value-removed': check('breaking', 'Removed', 'A value is removed from a request enum (enum narrowed)'),
  'request-enum-added': check('breaking', 'Changed', 'A request value that was free becomes restricted to an enum'),
  'request-bounds-tightened': check(
    'breaking',
    'Changed',
    'A request bound is tightened or added: maxLength, maximum, maxItems, maxProperties lowered; minLength, minimum, minItems, minProperties raised',
  ),
  'request-pattern-added': check(
    'breaking',
    'Changed',
    'A request value that had no pattern gets one (a pattern generalised to `.*` is no pattern)',
  ),
  'request-pattern-changed': check(
    'potentially-breaking',
    'Changed',
    'The pattern of a request value is replaced by another one; whether it accepts less cannot be told in general',
  ),
  'request-format-narrowed': check(
    'breaking',
    'Changed',
    'A request integer format is narrowed (int64 to int32, none to int32)',
  ),
  'request-format-changed': check(
    'breaking',
    'Changed',
    'A request format changes in any other way (e.g. date-time to date, int32 to uint32)',
  ),
  'request-variant-removed': check('breaking', 'Removed', 'A oneOf/anyOf alternative of a request value is removed'),
  'integer-format-widened-to-int64': check(
    'potentially-breaking',
    'Changed',
    'An integer format moves from uint32 or uint64 to int64, in a path, query or header parameter, a request property or a response property (area C)',
  ),
  'response-property-removed': check(
    'breaking',
    'Removed',
    'A response property, optional or required, is removed (area C)',
  ),
  'response-property-became-optional': check('breaking', 'Changed', 'A required response property becomes optional'),
  'response-property-deprecated': check(
    'potentially-breaking',
    'Deprecated',
    'A response property is marked deprecated',
  ),
  'response-type-changed': check(
    'breaking',
    'Changed',
    'A response value can now have a type it could not have (incl. null)',
  ),
  'response-enum-value-added': check('potentially-breaking', 'Added', 'A value is added to a response enum'),
  'response-enum-removed': check(
    'potentially-breaking',
    'Changed',
    'A response value that was restricted to an enum is no longer restricted',
  ),
  'response-bounds-widened': check(
    'breaking',
    'Changed',
    'A response bound is loosened or removed (a value may now fall outside what a client checks or stores)',
  ),
  'response-format-widened': check(
    'breaking',
    'Changed',
    'A response number format is widened (int32 to int64, float to double, or dropped): a value may no longer fit',
  ),
  'response-format-changed': check('breaking', 'Changed', 'A response format changes in any other way'),
  'response-one-of-added': check(
    'breaking',
    'Added',
    'A `oneOf` alternative is added to a response value (a client handling each alternative meets one it does not know)',
  ),
  'response-variant-added': check(
    'potentially-breaking',
    'Added',
    'An `anyOf` alternative is added to a response value',
  ),
  'request-variants-restructured': check(
    'breaking',
    'Changed',
    'A request value is wrapped into a `oneOf`/`anyOf` (or unwrapped from one) and some value it accepted is now refused (under `oneOf`, one matching two alternatives)',
  ),
  'response-variants-restructured': check(
    'breaking',
    'Changed',
    'A response value is wrapped into a `oneOf`/`anyOf` (or unwrapped from one) and may now take a shape a client did not handle',
  ),
  'request-all-of-added': check(
    'breaking',
    'Added',
    'A request value must also match one more `allOf` schema (one with a shaping keyword; wrapping a `$ref` adds none)',
  ),
  'response-property-added': check(
    'info',
    'Added',
    'A response property is added (reported only inside a success-status bundle)',
  ),
  'response-required-header-removed': check('breaking', 'Removed', 'A required response header is removed'),
  'response-optional-header-removed': check(
    'potentially-breaking',
    'Removed',
    'An optional response header is removed',
  ),
  'response-header-became-optional': check('breaking', 'Changed', 'A required response header becomes optional'),
  'request-parameter-default-changed': check(
    'breaking',
    'Changed',
    'The default value of an optional request parameter changes (a client that leaves it out gets other behaviour)',
  ),
  'request-parameter-default-added': check(
    'breaking',
    'Added',
    'An optional request parameter gets a default value (what the server does without it was unspecified)',
  ),
  'request-parameter-default-removed': check(
    'breaking',
    'Removed',
    'The default value of an optional request parameter is removed (what the server does without it becomes unspecified)',
  ),
  'request-default-value-changed': check(
    'potentially-breaking',
    'Changed',
    'The default value of an optional request property or body changes (it matters only to clients that leave the value out)',
  ),
  'request-default-value-added': check(
    'potentially-breaking',
    'Added',
    'An optional request property or body gets a default value',
  ),
  'request-default-value-removed': check(
    'potentially-breaking',
    'Removed',
    'The default value of an optional request property or body is removed',
  ),
  'request-type-restricted': check(
    'breaking',
    'Changed',
    'A request value (a body included) that had no type, so accepted anything, gets one',
  ),
  'response-type-unrestricted': check(
    'breaking',
    'Changed',
    'A response value (a body included) that had a type loses it, so may be anything',
  ),
  'request-const-added': check(
    'breaking',
    'Changed',
    'A request value that was free is restricted to one `const` value',
  ),
  'request-const-changed': check(
    'breaking',
    'Changed',
    'The `const` value of a request value changes (or an enum becomes a `const` without the old values)',
  ),
  'response-const-changed': check(
    'breaking',
    'Changed',
    'The `const` value of a response value changes (or a `const` becomes an enum with other values)',
  ),
  'response-const-removed': check(
    'breaking',
    'Changed',
    'A response value restricted to one `const` value is no longer restricted',
  ),
  'request-conditional-added': check(
    'breaking',
    'Added',
    'An `if`, `then` or `else` schema is added to a request value (`then`/`else` changes are compared like any value)',
  ),
  'request-conditional-changed': check(
    'potentially-breaking',
    'Changed',
    'The `if` schema of a request value changes (which of `then`/`else` applies depends on the data)',
  ),
  'response-conditional-removed': check(
    'breaking',
    'Removed',
    'An `if`, `then` or `else` schema of a response value is removed',
  ),
  'response-conditional-changed': check(
    'potentially-breaking',
    'Changed',
    'The `if` schema of a response value changes (which of `then`/`else` applies depends on the data)',
  ),
  'request-dependent-required-added': check(
    'breaking',
    'Added',
    'A `dependentRequired` entry of a request value gains a property (sending the first now needs the second)',
  ),
  'response-dependent-required-removed': check(
    'breaking',
    'Removed',
    'A `dependentRequired` entry of a response value loses a property a client could count on',
  ),
  'request-dependent-schema-added': check(
    'breaking',
    'Added',
    'A `dependentSchemas` entry is added to a request value',
  ),
  'response-dependent-schema-removed': check(
    'breaking',
    'Removed',
    'A `dependentSchemas` entry of a response value is removed',
  ),
  'request-contains-added': check('breaking', 'Added', 'A request array gains a `contains` schema'),
  'response-contains-removed': check('breaking', 'Removed', 'The `contains` schema of a response array is removed'),
  'request-pattern-property-added': check(
    'breaking',
    'Added',
    'A `patternProperties` entry is added to a request value (properties matching it are constrained)',
  ),
  'response-pattern-property-removed': check(
    'breaking',
    'Removed',
    'A `patternProperties` entry of a response value is removed',
  ),
  'request-property-names-added': check('breaking', 'Added', 'A request object gains a `propertyNames` schema'),
  'response-property-names-removed': check(
    'breaking',
    'Removed',
    'The `propertyNames` schema of a response object is removed',
  ),
  'request-content-schema-added': check('breaking', 'Added', 'A request string gains a `contentSchema`'),
  'response-content-schema-removed': check(
    'breaking',
    'Removed',
    'The `contentSchema` of a response string is removed',
  ),
  'request-content-encoding-changed': check(
    'breaking',
    'Changed',
    'The `contentMediaType` or `contentEncoding` of a request string is added, removed or changed',
  ),
  'request-prefix-items-added': check(
    'potentially-breaking',
    'Added',
    '`prefixItems` is added to a request array: a value at a described position that matched `items` may be refused',
  ),
  'response-prefix-items-removed': check(
    'potentially-breaking',
    'Removed',
    '`prefixItems` is removed from a response array: a position is no longer described apart from `items`',
  ),
  'response-content-encoding-changed': check(
    'breaking',
    'Changed',
    'The `contentMediaType` or `contentEncoding` of a response string is added, removed or changed',
  ),
  'request-unevaluated-restricted': check(
    'breaking',
    'Changed',
    '`unevaluatedProperties`/`unevaluatedItems` of a request value is added or narrowed (undeclared members are refused)',
  ),
  'response-unevaluated-relaxed': check(
    'breaking',
    'Changed',
    '`unevaluatedProperties`/`unevaluatedItems` of a response value is removed or loosened (undeclared members may appear)',
  ),
  'request-not-added': check(
    'breaking',
    'Added',
    'A request value gains a `not` schema (values it accepted may now be refused)',
  ),
  'request-not-changed': check('potentially-breaking', 'Changed', 'The `not` schema of a request value changes'),
  'response-not-changed': check(
    'potentially-breaking',
    'Changed',
    'The `not` schema of a response value is removed or changed',
  ),
  'request-deep-object-type-changed': check(
    'potentially-breaking',
    'Changed',
    'The type of a property of a `deepObject` query parameter changes between two non-string types (sent as text either way)',
  ),
  'webhook-removed': check('breaking', 'Removed', 'A webhook or callback the API sent is removed'),
  'webhook-deprecated': check('potentially-breaking', 'Deprecated', 'A webhook or callback is marked deprecated'),
  'webhook-success-status-removed': check(
    'potentially-breaking',
    'Removed',
    'A 2xx status a webhook or callback receiver could answer with is no longer listed',
  ),
} satisfies Record<string, CheckDefinition>;

export type CheckId = keyof typeof CHECKS;
