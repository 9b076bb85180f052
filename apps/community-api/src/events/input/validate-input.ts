export interface InputProblem {
  message: string;
  /** The offending property; absent when the whole input is wrong. */
  field?: string;
}

/** One check of one property: `(value, whole input) => message | undefined` (the message may name a nested field, see withField). */
export type InputCheck = readonly [
  property: string,
  problem: (value: unknown, input: Record<string, unknown>) => string | undefined,
];

/** What an input may hold and how it is checked: every property, then every check in the spec's order. */
export interface InputRules {
  properties: readonly string[];
  /** Cross-field rules come after every field they read; the first failing check is the one reported. */
  checks: readonly InputCheck[];
  unknownMessage: (key: string) => string;
}

/** A check's message may name a nested field (`location.latitude`): `field<NUL>message`. */
export const withField = (field: string, message: string): string => `${field}\u0000${message}`;

function problemOf(property: string, message: string): InputProblem {
  const cut = message.indexOf('\u0000');
  return cut === -1 ? { message, field: property } : { message: message.slice(cut + 1), field: message.slice(0, cut) };
}

/**
 * The one problem to report, if any: an unknown key first (own keys in the order sent, `__proto__` included),
 * then the checks in order, stopping at the first that fails. Values are read as sent (nothing is converted).
 */
export function firstProblem(plain: Record<string, unknown>, rules: InputRules): InputProblem | undefined {
  const unknown = Object.keys(plain).find((key) => !rules.properties.includes(key));
  if (unknown !== undefined) return { message: rules.unknownMessage(unknown), field: unknown };
  for (const [property, problem] of rules.checks) {
    const message = problem(plain[property], plain);
    if (message !== undefined) return problemOf(property, message);
  }
  return undefined;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
