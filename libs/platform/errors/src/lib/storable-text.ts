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
export function findTextProblem(
  value: unknown,
  options: { maxDepth?: number; checkStrings?: boolean } = {},
): TextProblem | undefined {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const checkStrings = options.checkStrings ?? true;
  if (!checkStrings) return findDepthProblem(value, maxDepth);
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof current === 'string') {
      if (checkStrings && !isStorableText(current))
        return { field: path, message: `${path || 'value'} must not contain NUL or unpaired surrogate characters` };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth)
      return { field: path, message: `${path || 'value'} is nested more than ${maxDepth} levels deep` };
    for (const [key, child] of Object.entries(current)) {
      const childPath = join(path, key);
      if (checkStrings && !isStorableText(key))
        return {
          field: path || 'key',
          message: `a property name in ${path || 'the object'} contains NUL or unpaired surrogate characters`,
        };
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}

interface DepthFrame {
  value: object;
  key: string;
  parent: DepthFrame | undefined;
  depth: number;
}

const pathOf = (frame: DepthFrame): string => (frame.parent ? join(pathOf(frame.parent), frame.key) : '');

/**
 * The depth check alone (opaque bodies): visits objects only and builds the dotted path of the one it reports,
 * not of every value; on a batch of 100 events that is most of the guard's cost. Same visiting order and
 * answer as the full walk, which reports nothing else when strings are not checked.
 */
function findDepthProblem(value: unknown, maxDepth: number): TextProblem | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: DepthFrame[] = [{ value, key: '', parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop() as DepthFrame;
    if (frame.depth >= maxDepth) {
      const path = pathOf(frame);
      return { field: path, message: `${path || 'value'} is nested more than ${maxDepth} levels deep` };
    }
    const record = frame.value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, key, parent: frame, depth: frame.depth + 1 });
    }
  }
  return undefined;
}
