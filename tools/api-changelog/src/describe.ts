import { CHECKS, CheckId } from './checks';
import { ClassifiedChange } from './model';
import { SchemaFinding } from './schema-diff';

/** Where a schema sits in an operation, to name what changed the way area C does. */
export type SchemaLocation =
  | { where: 'request-body'; media: string }
  | { where: 'response-body'; media: string; status: string }
  | { where: 'parameter'; in: string; name: string }
  | { where: 'response-header'; name: string; status: string };

export interface OperationRef {
  method: string;
  path: string;
}

export function change(op: OperationRef, check: CheckId, description: string): ClassifiedChange {
  const { group, kind } = CHECKS[check];
  return {
    check,
    group: group === 'info' ? 'potentially-breaking' : group,
    kind,
    method: op.method.toUpperCase(),
    path: op.path,
    description,
  };
}

const isJson = (media: string) => media === 'application/json' || media === '*/*';
const code = (text: string) => `\`${text}\``;
const value = (text?: string) => text ?? 'none';

function subject(path: string, location: SchemaLocation): string {
  if (location.where === 'parameter') {
    const parameter = `${location.in} parameter ${code(location.name)}`;
    return path === '' ? parameter : `${parameter} property ${code(path)}`;
  }
  if (location.where === 'response-header') {
    const header = `response header ${code(location.name)}`;
    return path === '' ? header : `${header} property ${code(path)}`;
  }
  const side = location.where === 'request-body' ? 'request' : 'response';
  return path === '' ? `the ${side} body` : `${side} property ${code(path)}`;
}

function suffix(location: SchemaLocation): string {
  if (location.where === 'response-header') return ` for status ${location.status}`;
  const media = location.where !== 'parameter' && !isJson(location.media) ? ` (${location.media})` : '';
  return location.where === 'response-body' ? `${media} for status ${location.status}` : media;
}

function text(f: SchemaFinding, s: string): string {
  const optional = f.required ? 'required' : 'optional';
  switch (f.check) {
    case 'request-property-removed':
      return `${s} removed`;
    case 'response-property-removed':
      return `${optional} ${s} removed`;
    case 'new-required-request-property':
    case 'new-optional-request-property':
    case 'response-property-added':
      return `${optional} ${s} added`;
    case 'request-property-became-required':
      return `${s} became required`;
    case 'response-property-became-optional':
      return `${s} became optional`;
    case 'request-property-became-read-only':
      return `${s} became read-only`;
    case 'response-property-became-write-only':
      return `${s} became write-only`;
    case 'request-property-deprecated':
    case 'response-property-deprecated':
      return `${s} deprecated`;
    case 'request-type-changed':
    case 'response-type-changed':
      return `the type of ${s} changed from ${code(value(f.from))} to ${code(value(f.to))}`;
    case 'integer-format-widened-to-int64':
      return `the integer format of ${s} changed from ${code(value(f.from))} to ${code(value(f.to))}`;
    case 'request-format-narrowed':
    case 'request-format-changed':
    case 'response-format-widened':
    case 'response-format-changed':
      return `the format of ${s} changed from ${code(value(f.from))} to ${code(value(f.to))}`;
    case 'request-enum-value-removed':
      return `value ${code(value(f.detail))} removed from the enum of ${s}`;
    case 'request-enum-added':
      return `${s} restricted to the values ${f.to}`;
    case 'response-enum-value-added':
      return `value ${code(value(f.detail))} added to the enum of ${s}`;
    case 'response-enum-removed':
      return `${s} no longer restricted to an enum`;
    case 'request-bounds-tightened':
      return `${code(value(f.detail))} of ${s} tightened from ${f.from} to ${f.to}`;
    case 'response-bounds-widened':
      return `${code(value(f.detail))} of ${s} loosened from ${f.from} to ${f.to}`;
    case 'request-pattern-added':
    case 'request-pattern-changed':
      return `the pattern of ${s} changed from ${code(value(f.from))} to ${code(value(f.to))}`;
    default:
      return describeKeyword(f, s);
  }
}

/** Texts of the defaults, untyped-body and OpenAPI 3.1 keyword checks. */
function describeKeyword(f: SchemaFinding, s: string): string {
  switch (f.check) {
    case 'request-parameter-default-changed':
    case 'request-default-value-changed':
      return `the default value of ${s} changed from ${code(value(f.from))} to ${code(value(f.to))}`;
    case 'request-parameter-default-added':
    case 'request-default-value-added':
      return `default value ${code(value(f.to))} added to ${s}`;
    case 'request-parameter-default-removed':
    case 'request-default-value-removed':
      return `default value ${code(value(f.from))} removed from ${s}`;
    case 'request-type-restricted':
    case 'response-type-unrestricted':
    case 'request-deep-object-type-changed':
      return `the type of ${s} changed from ${code(value(f.from))} to ${code(value(f.to))}`;
    case 'request-const-added':
      return `${s} restricted to the constant ${f.to}`;
    case 'request-const-changed':
    case 'response-const-changed':
      return `the constant of ${s} changed from ${f.from} to ${f.to}`;
    case 'response-const-removed':
      return `${s} no longer restricted to the constant ${f.from}`;
    case 'request-conditional-added':
      return `${code(value(f.detail))} schema added to ${s}`;
    case 'response-conditional-removed':
      return `${code(value(f.detail))} schema removed from ${s}`;
    case 'request-conditional-changed':
    case 'response-conditional-changed':
      return `the ${code('if')} schema of ${s} changed`;
    case 'request-dependent-required-added':
      return `${s} with property ${code(value(f.detail))} now also requires ${code(value(f.to))}`;
    case 'response-dependent-required-removed':
      return `${s} with property ${code(value(f.detail))} no longer guarantees ${code(value(f.to))}`;
    case 'request-dependent-schema-added':
      return `dependent schema for property ${code(value(f.detail))} added to ${s}`;
    case 'response-dependent-schema-removed':
      return `dependent schema for property ${code(value(f.detail))} removed from ${s}`;
    case 'request-pattern-property-added':
      return `pattern property ${code(value(f.detail))} added to ${s}`;
    case 'response-pattern-property-removed':
      return `pattern property ${code(value(f.detail))} removed from ${s}`;
    case 'request-contains-added':
    case 'request-property-names-added':
    case 'request-content-schema-added':
      return `${code(value(f.detail))} schema added to ${s}`;
    case 'response-contains-removed':
    case 'response-property-names-removed':
    case 'response-content-schema-removed':
      return `${code(value(f.detail))} schema removed from ${s}`;
    case 'request-content-encoding-changed':
    case 'response-content-encoding-changed':
      return `${code(value(f.detail))} of ${s} changed from ${code(value(f.from))} to ${code(value(f.to))}`;
    case 'request-unevaluated-restricted':
      return `${code(value(f.detail))} of ${s} restricted to ${code(value(f.to))}`;
    case 'response-unevaluated-relaxed':
      return `${code(value(f.detail))} of ${s} relaxed from ${code(value(f.from))}`;
    case 'request-not-added':
      return `a ${code('not')} schema added to ${s}`;
    case 'request-not-changed':
      return `the ${code('not')} schema of ${s} changed`;
    case 'response-not-changed':
      return `the ${code('not')} schema of ${s} ${f.from}`;
    case 'request-all-of-added':
      return f.detail === '1'
        ? `an ${code('allOf')} schema added to ${s}`
        : `${f.detail} ${code('allOf')} schemas added to ${s}`;
    case 'request-variants-restructured':
    case 'response-variants-restructured':
      return `${s} ${f.from === 'wrapped' ? 'wrapped into' : 'unwrapped from'} a ${code(value(f.detail))}`;
    case 'request-variant-removed':
      return `a ${code(value(f.detail))} alternative of ${s} removed`;
    case 'response-variant-added':
    case 'response-one-of-added':
      return `a ${code(value(f.detail))} alternative added to ${s}`;
    case 'request-prefix-items-added':
      return `tuple positions (${code('prefixItems')}, ${f.to}) added to ${s}`;
    case 'response-prefix-items-removed':
      return `tuple positions (${code('prefixItems')}, ${f.from}) removed from ${s}`;
    default:
      return `${s}: ${f.check}`;
  }
}

/** "optional response property `scans[].is_partial_scan` added for status 200" and the like. */
export function describeFinding(op: OperationRef, f: SchemaFinding, location: SchemaLocation): ClassifiedChange {
  return change(op, f.check, `${text(f, subject(f.path, location))}${suffix(location)}`);
}
