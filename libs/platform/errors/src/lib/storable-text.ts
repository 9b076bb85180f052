/** A UTF-16 surrogate without its partner: Postgres refuses it as text and inside jsonb. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text PostgreSQL can store as text and inside jsonb: no NUL and no lone surrogate. */
export function isStorableText(value: string): boolean {
  LONE_SURROGATE.lastIndex = 0;
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** Replaces lone surrogates with U+FFFD and drops NUL (for copies we keep of opaque client text). */
export function toStorableText(value: string): string {
  return value.replace(LONE_SURROGATE, '\ufffd').replaceAll('\u0000', '');
}

/** Deeper JSON than this is refused: no contract nests anywhere near it, and recursion in validators would. */
export const MAX_JSON_DEPTH = 64;

export interface TextProblem {
  /** Dotted path of the offending value or key ('' for the value itself). */
  field: string;
  message: string;
}

const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

/**
 * The first string (value or key) PostgreSQL could not hold, or nesting deeper than `maxDepth`, in a parsed
 * body, query or params object. Iterative, so a hostile depth cannot overflow the stack here.
 */
export function findTextProblem(value: unknown, options: { maxDepth?: number; checkStrings?: boolean } = {}): TextProblem | undefined {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const checkStrings = options.checkStrings ?? true;
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof current === 'string') {
      if (checkStrings && !isStorableText(current)) return { field: path, message: `${path || 'value'} must not contain NUL or unpaired surrogate characters` };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) return { field: path, message: `${path || 'value'} is nested more than ${maxDepth} levels deep` };
    for (const [key, child] of Object.entries(current)) {
      const childPath = join(path, key);
      if (checkStrings && !isStorableText(key)) return { field: path || 'key', message: `a property name in ${path || 'the object'} contains NUL or unpaired surrogate characters` };
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}
