import { collectWhenImagesIdle } from './idle-collection';

describe('collectWhenImagesIdle', () => {
  const holder = globalThis as { gc?: () => void };
  const exposed = holder.gc;
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    holder.gc = exposed;
  });

  it('runs one full collection once images have been idle for 2 s, however many bursts came before', () => {
    const gc = jest.fn();
    holder.gc = gc;
    collectWhenImagesIdle();
    jest.advanceTimersByTime(1500);
    collectWhenImagesIdle();
    jest.advanceTimersByTime(1500);
    expect(gc).not.toHaveBeenCalled();
    jest.advanceTimersByTime(600);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('does nothing when the process runs without --expose-gc', () => {
    holder.gc = undefined;
    collectWhenImagesIdle();
    expect(jest.getTimerCount()).toBe(0);
  });
});
