import { edgeDraw } from './edge-draw';

/** A seeded uniform generator (mulberry32), so the statistical checks below are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `source`, counting its calls: one call per draw the edge takes. */
function counted(source: () => number) {
  const counter = { draws: 0, random: () => (counter.draws++, source()) };
  return counter;
}

/** A manual clock the draw reads. */
function clock() {
  let at = 0;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

/**
 * `traced` out of `n` at `ratio`, within five standard deviations. Requests of one slot share its draw, so with
 * `perDraw` requests a draw on average the count's variance is `perDraw` times the binomial one.
 */
function expectRatio(traced: number, n: number, ratio: number, perDraw = 1): void {
  const deviation = 5 * Math.sqrt(n * perDraw * ratio * (1 - ratio));
  expect(Math.abs(traced - n * ratio)).toBeLessThan(deviation);
}

describe('edgeDraw (root sampling in slots)', () => {
  it('traces each request with the ratio, at any load', () => {
    for (const gapMs of [0.1, 2, 40, 1000]) {
      const time = clock();
      const random = counted(seeded(gapMs * 1000));
      const draw = edgeDraw({ ratio: 0.1, now: time.now, random: random.random });
      const spacing = seeded(7);
      let traced = 0;
      const n = 200_000;
      for (let i = 0; i < n; i += 1) {
        time.advance(gapMs * 2 * spacing());
        if (draw()) traced += 1;
      }
      expectRatio(traced, n, 0.1, n / random.draws);
    }
  });

  it('does not favour or starve a periodic client beside a busy one', () => {
    for (const periodMs of [100, 50, 250]) {
      const time = clock();
      const draw = edgeDraw({ ratio: 0.1, now: time.now, random: seeded(periodMs) });
      const spacing = seeded(11);
      let periodicTraced = 0;
      let periodicSent = 0;
      let nextPeriodic = 0;
      // A busy client at ~500/s; the periodic one lands exactly on its period, as a cron or a poller would.
      while (periodicSent < 20_000) {
        const busyGap = 4 * spacing();
        if (time.now() + busyGap >= nextPeriodic) {
          time.advance(nextPeriodic - time.now());
          if (draw()) periodicTraced += 1;
          periodicSent += 1;
          nextPeriodic += periodMs;
        } else {
          time.advance(busyGap);
          draw();
        }
      }
      // Several of its requests share a slot (at most 500 ms) when its period is shorter.
      expectRatio(periodicTraced, periodicSent, 0.1, Math.max(1, 500 / periodMs));
    }
  });

  it('decides requests in runs: one draw per slot of 500 ms under load', () => {
    const time = clock();
    const random = counted(seeded(3));
    const draw = edgeDraw({ ratio: 0.1, now: time.now, random: random.random });
    const decisions: boolean[] = [];
    // 1,000 requests at 100/s: ten seconds, so 20 slots of 50 requests (under the cap of 64).
    for (let i = 0; i < 1000; i += 1) {
      decisions.push(draw());
      time.advance(10);
    }
    expect(random.draws).toBe(20);
    for (let slot = 0; slot < 20; slot += 1) {
      const run = decisions.slice(slot * 50, slot * 50 + 50);
      expect(new Set(run).size).toBe(1);
    }
  });

  it('caps a run at 64 requests however fast they come, so a run fits the span queue', () => {
    const time = clock();
    const random = counted(() => 0.5);
    const draw = edgeDraw({ ratio: 1, now: time.now, random: random.random });
    for (let i = 0; i < 64 * 10; i += 1) draw();
    expect(random.draws).toBe(10);
  });

  it('draws request by request when the service is quiet', () => {
    const time = clock();
    const random = counted(() => 0.5);
    const draw = edgeDraw({ ratio: 0.1, now: time.now, random: random.random });
    for (let i = 0; i < 100; i += 1) {
      draw();
      time.advance(600);
    }
    expect(random.draws).toBe(100);
  });

  it('traces every request at ratio 1 and none at 0', () => {
    const time = clock();
    const always = edgeDraw({ ratio: 1, now: time.now });
    const never = edgeDraw({ ratio: 0, now: time.now });
    for (let i = 0; i < 1000; i += 1) {
      expect(always()).toBe(true);
      expect(never()).toBe(false);
      time.advance(1);
    }
  });
});
