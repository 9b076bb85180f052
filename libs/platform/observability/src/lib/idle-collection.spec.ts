import { releaseStartUpMemory } from './idle-collection';

describe('releaseStartUpMemory', () => {
  const holder = globalThis as { gc?: (options?: object) => void };
  const exposed = holder.gc;
  afterEach(() => {
    holder.gc = exposed;
  });

  /** Resolves after the next look (5 s of real timers would make the test slow, so the window is awaited). */
  const nextLook = () => new Promise((resolve) => setTimeout(resolve, 5050));
  const busyFor = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  it('collects in a quiet window, and not while the event loop is busy', async () => {
    const gc = jest.fn();
    holder.gc = gc;
    releaseStartUpMemory();
    // Busy for most of the first window: no collection then.
    setTimeout(() => busyFor(1500), 3000);
    await nextLook();
    expect(gc).not.toHaveBeenCalled();
    // A later window is idle: one memory-reducing collection. (On a machine this loaded by other test files a
    // window may still count as busy, so up to six more looks; the collection happens once and only once.)
    for (let look = 0; look < 6 && gc.mock.calls.length === 0; look++) await nextLook();
    await nextLook();
    expect(gc).toHaveBeenCalledTimes(1);
    expect(gc).toHaveBeenCalledWith({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  }, 60000);
});
