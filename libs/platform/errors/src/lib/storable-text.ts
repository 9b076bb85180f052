import { yieldToEventLoop } from './chunked-check';

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

/**
 * More values than this in one body, query or params object are refused: the largest contract (an operator
 * import of 10,000 documents with their records) holds a few hundred thousand; the walk stops here.
 */
export const MAX_JSON_NODES = 2_000_000;

const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

interface Frame {
  value: unknown;
  key: string | number;
  parent: Frame | undefined;
  depth: number;
}

/** The dotted path of a frame, built only for the one value a problem is reported on. */
const pathOf = (frame: Frame): string => (frame.parent ? join(pathOf(frame.parent), String(frame.key)) : '');

/**
 * The first string (value or key) PostgreSQL could not hold, nesting deeper than `maxDepth`, or more than
 * `maxNodes` values, in a parsed body, query or params object. Iterative, so a hostile depth cannot overflow the
 * stack here; frames point to their parent, so no path is built unless a problem is reported.
 */
export function findTextProblem(value: unknown, options: TextWalkOptions = {}): TextProblem | undefined {
  return new TextWalk(value, options).run(Number.POSITIVE_INFINITY) as TextProblem | undefined;
}

/**
 * findTextProblem, the same walk with the same answer, yielding to the event loop every `sliceNodes` values
 * (a 10,000-document import is ~10-100 ms of walking in one go; docs/decisions.md#big-bodies-are-checked-in-chunks).
 */
export async function findTextProblemInChunks(
  value: unknown,
  options: TextWalkOptions & { sliceNodes?: number } = {},
): Promise<TextProblem | undefined> {
  const walk = new TextWalk(value, options);
  let answer = walk.run(options.sliceNodes ?? 20_000);
  while (answer === UNFINISHED) {
    await yieldToEventLoop();
    answer = walk.run(options.sliceNodes ?? 20_000);
  }
  return answer;
}

export interface TextWalkOptions {
  maxDepth?: number;
  maxNodes?: number;
  checkStrings?: boolean;
}

const UNFINISHED = Symbol('UNFINISHED');

/**
 * The walk, resumable: a plain loop rather than a generator, which V8 would run interpreted (no on-stack
 * replacement in generators) through a whole first slice.
 */
class TextWalk {
  private readonly maxDepth: number;
  private readonly checkStrings: boolean;
  private readonly maxNodes: number;
  private budget: number;
  private readonly stack: Frame[];

  constructor(value: unknown, options: TextWalkOptions) {
    this.maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
    this.checkStrings = options.checkStrings ?? true;
    this.maxNodes = options.maxNodes ?? MAX_JSON_NODES;
    this.budget = this.maxNodes;
    this.stack = [{ value, key: '', parent: undefined, depth: 0 }];
  }

  /** Visits up to `frames` frames: the problem, undefined when the walk ended without one, or UNFINISHED. */
  run(frames: number): TextProblem | undefined | typeof UNFINISHED {
    const { maxDepth, checkStrings, maxNodes, stack } = this;
    let left = frames;
    while (stack.length > 0) {
      if (--left < 0) return UNFINISHED;
      const frame = stack.pop() as Frame;
      const current = frame.value;
      if (typeof current === 'string') {
        if (checkStrings && !isStorableText(current)) {
          const path = pathOf(frame);
          return { field: path, message: `${path || 'value'} must not contain NUL or unpaired surrogate characters` };
        }
        continue;
      }
      if (current === null || typeof current !== 'object') continue;
      if (frame.depth >= maxDepth) {
        const path = pathOf(frame);
        return { field: path, message: `${path || 'value'} is nested more than ${maxDepth} levels deep` };
      }
      // Arrays by index: Object.keys of a hostile array would itself allocate a string per element.
      const keys = Array.isArray(current) ? undefined : Object.keys(current);
      const size = keys ? keys.length : (current as unknown[]).length;
      this.budget -= size;
      if (this.budget < 0) return { field: '', message: `the value holds more than ${maxNodes} values` };
      for (let index = 0; index < size; index += 1) {
        const key = keys ? keys[index] : index;
        if (checkStrings && keys && !isStorableText(key as string)) {
          const path = pathOf(frame);
          return {
            field: path || 'key',
            message: `a property name in ${path || 'the object'} contains NUL or unpaired surrogate characters`,
          };
        }
        const child = (current as Record<string | number, unknown>)[key];
        // Opaque bodies: only objects can break the depth bound, so scalars are not stacked.
        if (checkStrings || (child !== null && typeof child === 'object'))
          stack.push({ value: child, key, parent: frame, depth: frame.depth + 1 });
      }
    }
    return undefined;
  }
}
