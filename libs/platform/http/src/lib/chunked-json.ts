import { yieldToEventLoop } from '@acme/platform-errors';

/**
 * JSON.parse of a big body in pieces that yield to the event loop: a 6 MB operator import is 20-70 ms of parsing
 * in one call (docs/decisions.md#big-bodies-are-checked-in-chunks). A top-level object is framed here (its keys,
 * colons and commas); each member value is parsed by JSON.parse, and an array value in pieces of about
 * `pieceChars` characters, each piece a run of whole elements. A text framed otherwise (a top-level array, stray
 * characters) is given to JSON.parse whole, so the answer, or the SyntaxError, is always JSON.parse's own.
 *
 * Why a piece that fails means the whole text fails: on valid JSON the framing below (which skips strings and
 * counts brackets) finds the true element boundaries, so every piece parses. Conversely, pieces that parse are
 * whole values, and the characters between them were checked here, so the text was valid JSON.
 */
export async function parseJsonInChunks(text: string, pieceChars = 256 * 1024): Promise<unknown> {
  const framed = new Framing(text, pieceChars);
  const result = await framed.object();
  return result === NOT_FRAMED ? JSON.parse(text) : result;
}

const NOT_FRAMED = Symbol('NOT_FRAMED');
/** Work between yields: a piece is a few ms of JSON.parse; framing checks the clock every 64K characters. */
const SLICE_MS = 8;
const SCAN_STRIDE = 64 * 1024;
/** scanSome stopped at its stride, not at an answer. */
const SCAN_ON = -2;

interface ScanState {
  at: number;
  depth: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** JSON's whitespace, exactly (JSON.parse refuses any other, e.g. a BOM or U+00A0). */
const isJsonSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

class Framing {
  private at = 0;
  private sliceStarted = performance.now();

  constructor(
    private readonly text: string,
    private readonly pieceChars: number,
  ) {}

  /** The top-level object, or NOT_FRAMED when the text is not `{ "key": value, ... }` followed by spaces. */
  async object(): Promise<unknown> {
    this.skipSpace();
    if (this.code() !== OPEN_BRACE) return NOT_FRAMED;
    this.at += 1;
    const result: Record<string, unknown> = {};
    this.skipSpace();
    if (this.code() === CLOSE_BRACE) {
      this.at += 1;
      return this.atEnd() ? result : NOT_FRAMED;
    }
    for (;;) {
      this.skipSpace();
      if (this.code() !== QUOTE) return NOT_FRAMED;
      const keyStart = this.at;
      this.at = this.stringEnd(this.at);
      if (this.at < 0) return NOT_FRAMED;
      const key = JSON.parse(this.text.slice(keyStart, this.at)) as string;
      this.skipSpace();
      if (this.code() !== COLON) return NOT_FRAMED;
      this.at += 1;
      this.skipSpace();
      const value = this.code() === OPEN_BRACKET ? await this.array() : await this.value();
      if (value === NOT_FRAMED) return NOT_FRAMED;
      // As JSON.parse defines members: an own data property even for `__proto__`; a repeated key keeps its place.
      Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true });
      this.skipSpace();
      const separator = this.code();
      this.at += 1;
      if (separator === CLOSE_BRACE) return this.atEnd() ? result : NOT_FRAMED;
      if (separator !== COMMA) return NOT_FRAMED;
    }
  }

  /** A member value other than an array: up to the next comma or brace at its own level, parsed whole. */
  private async value(): Promise<unknown> {
    const start = this.at;
    const end = await this.scanTo(start);
    if (end < 0) return NOT_FRAMED;
    this.at = end;
    return JSON.parse(this.text.slice(start, end));
  }

  /** An array value (at its `[`), parsed a piece of whole elements at a time. */
  private async array(): Promise<unknown> {
    this.at += 1;
    const elements: unknown[] = [];
    let pieceStart = this.at;
    for (let first = true; ; first = false) {
      const end = await this.scanTo(this.at);
      // A piece ends only at its own comma or bracket; a brace here would otherwise go unchecked.
      if (end < 0 || this.text.charCodeAt(end) === CLOSE_BRACE) return NOT_FRAMED;
      const last = this.text.charCodeAt(end) === CLOSE_BRACKET;
      if (last || end - pieceStart >= this.pieceChars) {
        const piece = this.text.slice(pieceStart, end);
        // `[]` and `[ ]` hold no element; any other blank piece (`[1, ]` cut after the 1) is not JSON.
        if (/^[ \t\n\r]*$/.test(piece)) {
          if (!(first && last)) return NOT_FRAMED;
        } else for (const element of JSON.parse(`[${piece}]`) as unknown[]) elements.push(element);
        pieceStart = end + 1;
        await this.pause();
      }
      this.at = end + 1;
      if (last) return elements;
    }
  }

  /**
   * Index of the first `,`, `}` or `]` at the level of `from` (skipping strings, counting brackets), or -1 when
   * the text ends first. Bracket kinds are not matched here: a mismatch makes the piece's JSON.parse throw.
   */
  private async scanTo(from: number): Promise<number> {
    const state: ScanState = { at: from, depth: 0 };
    let found = this.scanSome(state);
    while (found === SCAN_ON) {
      await this.pause();
      found = this.scanSome(state);
    }
    return found;
  }

  /** Up to SCAN_STRIDE characters of scanTo, in a plain loop (V8 optimises loops in async functions late). */
  private scanSome(state: ScanState): number {
    const text = this.text;
    const until = Math.min(text.length, state.at + SCAN_STRIDE);
    let depth = state.depth;
    let i = state.at;
    while (i < until) {
      const code = text.charCodeAt(i);
      if (code === QUOTE) {
        // A string may end past `until`: the next call goes on from its end.
        i = this.stringEnd(i);
        if (i < 0) return -1;
        continue;
      }
      if (code === OPEN_BRACE || code === OPEN_BRACKET) depth += 1;
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        if (depth === 0) return i;
        depth -= 1;
      } else if (code === COMMA && depth === 0) return i;
      i += 1;
    }
    state.at = i;
    state.depth = depth;
    return i >= text.length ? -1 : SCAN_ON;
  }

  /** Index just past the string whose opening quote is at `quote`, or -1 when it never closes. */
  private stringEnd(quote: number): number {
    let close = quote;
    for (;;) {
      close = this.text.indexOf('"', close + 1);
      if (close < 0) return -1;
      let backslashes = 0;
      while (this.text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes += 1;
      if (backslashes % 2 === 0) return close + 1;
    }
  }

  private code(): number {
    return this.text.charCodeAt(this.at);
  }

  private skipSpace(): void {
    while (isJsonSpace(this.text.charCodeAt(this.at))) this.at += 1;
  }

  private atEnd(): boolean {
    this.skipSpace();
    return this.at >= this.text.length;
  }

  /** Yields to the event loop once this slice has run SLICE_MS. */
  private async pause(): Promise<void> {
    if (performance.now() - this.sliceStarted < SLICE_MS) return;
    await yieldToEventLoop();
    this.sliceStarted = performance.now();
  }
}
