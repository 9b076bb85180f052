import { parseJsonInChunks } from './chunked-json';

/** JSON.parse's answer, or the fact that it threw. */
const reference = (text: string): { value?: unknown; threw?: true } => {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { threw: true };
  }
};

const chunked = async (text: string, pieceChars: number): Promise<{ value?: unknown; threw?: true }> => {
  try {
    return { value: await parseJsonInChunks(text, pieceChars) };
  } catch {
    return { threw: true };
  }
};

const sameAsJsonParse = async (text: string) => {
  for (const pieceChars of [1, 7, 64, 1 << 20]) expect(await chunked(text, pieceChars)).toEqual(reference(text));
};

describe('parseJsonInChunks', () => {
  const documents = Array.from({ length: 40 }, (_, i) => ({
    id: `doc-${i}`,
    title: `a "quoted" \\ title, with [brackets] and {braces} ${i}`,
    records: [{ id: 'r', body: { text: 'x\u2028y', list: [1, [2, {}], []] } }],
  }));

  it.each([
    ['a typical import', JSON.stringify({ documents })],
    ['the same, pretty-printed', JSON.stringify({ documents, other: 1 }, null, 2)],
    ['empty arrays and objects', ' { "a" : [ ] , "b" : { } , "c" : [] } '],
    ['scalars of every kind', '{"a":null,"b":true,"c":-1.5e3,"d":"s","e":[null,false,0,"",[],{}]}'],
    ['an empty object', '{}'],
    ['a top-level array (parsed whole)', '[1,2,{"a":[3]}]'],
    ['escapes before quotes', '{"a\\\\":["\\\\\\"",  "\\\\" , "\\"]"]}'],
    ['a repeated key keeps its first place and its last value', '{"a":[1],"b":2,"a":[3,4]}'],
  ])('answers as JSON.parse for %s', async (_name, text) => {
    await sameAsJsonParse(text);
  });

  it('defines __proto__ as an own member, as JSON.parse does, without touching the prototype', async () => {
    const text = '{"__proto__":[{"polluted":true}],"x":1}';
    const value = (await parseJsonInChunks(text, 1)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'x']);
    expect(value).toEqual(JSON.parse(text));
  });

  it.each([
    ['a trailing comma in an array', '{"a":[1,2,]}'],
    ['a trailing comma after a cut', '{"a":[1111, ]}'],
    ['a hole in an array', '{"a":[1,,2]}'],
    ['a brace closing an array', '{"a":[1,2}'],
    ['a brace closing an array after a cut', '{"a":[1111,2}]}'],
    ['a bracket closing an object', '{"a":1]'],
    ['an unclosed array', '{"a":[1,2'],
    ['an unclosed string', '{"a":["x]}'],
    ['a trailing comma in the object', '{"a":1,}'],
    ['text after the object', '{"a":[1]} x'],
    ['a second object', '{"a":[1]}{}'],
    ['a BOM before the object', '\ufeff{"a":[1]}'],
    ['a non-JSON space in an empty array', '{"a":[\u00a0]}'],
    ['a raw newline in a string', '{"a":["x\ny"]}'],
    ['a bad escape in a key', '{"\\x":[1]}'],
    ['a missing colon', '{"a" [1]}'],
    ['an unquoted key', '{a:[1]}'],
    ['mismatched brackets inside an element', '{"a":[{"b":[1}],2]}'],
  ])('throws as JSON.parse does for %s', async (_name, text) => {
    expect(reference(text).threw).toBe(true);
    await sameAsJsonParse(text);
  });

  it('agrees with JSON.parse on 2,000 texts one character away from a valid body', async () => {
    const valid = JSON.stringify({ documents: documents.slice(0, 3), n: [1, { m: '"\\' }] });
    const alphabet = ' ,:[]{}"\\0a-e\n';
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    for (let round = 0; round < 2000; round++) {
      const at = random(valid.length);
      const character = alphabet[random(alphabet.length)];
      const text =
        round % 2 === 0
          ? valid.slice(0, at) + valid.slice(at + 1)
          : valid.slice(0, at) + character + valid.slice(at + (round % 4 === 1 ? 0 : 1));
      expect(await chunked(text, 1 + (round % 40))).toEqual(reference(text));
    }
  });

  it('yields to the event loop while parsing a big body', async () => {
    const big = JSON.stringify({
      documents: Array.from({ length: 20_000 }, (_, i) => ({ id: `d${i}`, content: 'text '.repeat(40) })),
    });
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 0);
    const value = await parseJsonInChunks(big, 16 * 1024);
    clearInterval(timer);
    expect(value).toEqual(JSON.parse(big));
    expect(ticks).toBeGreaterThan(0);
  });
});
