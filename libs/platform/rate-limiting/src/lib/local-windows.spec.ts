import { LocalFixedWindows } from './local-windows';

describe('LocalFixedWindows', () => {
  it('refuses past the tightest window and opens again when that window ends', () => {
    let now = 60_000;
    const local = new LocalFixedWindows(100, () => now);
    const windows = [
      { limit: 3, windowSeconds: 1 },
      { limit: 4, windowSeconds: 60 },
    ];
    expect([1, 2, 3, 4].map(() => local.take('a', windows).allowed)).toEqual([true, true, true, false]);
    now += 1000;
    expect(local.take('a', windows)).toMatchObject({ allowed: true, limit: 4, remaining: 0 });
    const refused = local.take('a', windows);
    expect(refused).toMatchObject({ allowed: false, limit: 4, remaining: 0 });
    expect(refused.retryAfterSeconds).toBe(59);
    expect(local.take('b', windows).allowed).toBe(true);
  });

  it('keeps at most maxKeys counters, dropping the oldest', () => {
    const local = new LocalFixedWindows(10);
    for (let i = 0; i < 50; i += 1) local.take(`k${i}`, [{ limit: 1, windowSeconds: 60 }]);
    expect(local.size).toBe(10);
    expect(local.take('k49', [{ limit: 1, windowSeconds: 60 }]).allowed).toBe(false);
    expect(local.take('k0', [{ limit: 1, windowSeconds: 60 }]).allowed).toBe(true);
  });
});
