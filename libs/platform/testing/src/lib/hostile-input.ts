import { request as httpRequest } from 'node:http';
import fc from 'fast-check';

/** Strings PostgreSQL cannot hold (docs/decisions.md#text-postgresql-cannot-hold). */
export const UNSTORABLE_STRINGS = ['\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800', '%00'] as const;

/**
 * Code points validator.js's length counts skip or fold but PostgreSQL counts: variation selectors, combining
 * marks, zero-width joiners, tag characters, astral characters (issue 25: "a\uFE0F" × 128 overflowed varchar(128)).
 */
export const MISCOUNTED_CODE_POINTS = [
  '\uFE0F',
  '\uFE0E',
  '\u0301',
  '\u20E3',
  '\u200D',
  '\u{E0020}',
  '\u{1F600}',
] as const;

/** Runs of a letter with miscounted code points, from a few characters to twice a typical column's length. */
export function miscountedText(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...MISCOUNTED_CODE_POINTS), fc.integer({ min: 1, max: 600 }))
    .map(([mark, times]) => `a${mark}`.repeat(times));
}

/** Calendar dates that do not exist (30 February, 31 April, day 32…), as ISO dates: Date() would roll them over. */
export function impossibleIsoDate(): fc.Arbitrary<string> {
  return fc
    .record({
      year: fc.integer({ min: 2000, max: 2099 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 29, max: 39 }),
    })
    .filter(({ year, month, day }) => day > new Date(Date.UTC(year, month, 0)).getUTCDate())
    .map(({ year, month, day }) => `${year}-${String(month).padStart(2, '0')}-${day}`);
}

/** Nested `depth` levels deep, built without recursion. */
export function deeplyNested(depth: number, leaf: unknown = 'x'): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? { a: value } : [value];
  return value;
}

/**
 * Text a careless or hostile client sends: any code point (lone surrogates included), NUL, overlong runs,
 * runs of variation selectors and combining marks, impossible dates, and plain strings, so every bad-input property covers what PostgreSQL and the validators must survive.
 */
export function hostileText(options: { maxOverlong?: number } = {}): fc.Arbitrary<string> {
  // Beyond ~4 KB a query string nears Node's 16 KB header limit (431 from the engine, before our code).
  const maxOverlong = options.maxOverlong ?? 4_000;
  return fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom(...UNSTORABLE_STRINGS),
    fc.tuple(fc.string(), fc.constantFrom(...UNSTORABLE_STRINGS), fc.string()).map((parts) => parts.join('')),
    fc.integer({ min: 256, max: maxOverlong }).map((length) => 'x'.repeat(length)),
    miscountedText().filter((text) => text.length <= maxOverlong),
    fc
      .tuple(impossibleIsoDate(), fc.constantFrom('', 'T10:00:00Z', 'T10:00:00', 'T10:00:00+02:00'))
      .map((parts) => parts.join('')),
  );
}

/** Any JSON value a client could send in place of a field: hostile text, wrong types, deep nesting. */
export function hostileJsonValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    hostileText(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(hostileText(), { maxLength: 3 }),
    fc.dictionary(hostileText({ maxOverlong: 300 }), hostileText({ maxOverlong: 300 }), { maxKeys: 3 }),
    fc.integer({ min: 65, max: 3000 }).map((depth) => deeplyNested(depth)),
  );
}

/** A GET whose headers exceed Node's 16 KB limit: refused by the HTTP parser before any framework code runs. */
export function requestWithOversizedHeaders(
  baseUrl: string,
  path = '/',
): Promise<{ status: number; contentType: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl);
    const request = httpRequest(url, { headers: { 'x-padding': 'x'.repeat(20_000) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: String(response.headers['content-type'] ?? ''),
          body: text ? JSON.parse(text) : undefined,
        }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}
