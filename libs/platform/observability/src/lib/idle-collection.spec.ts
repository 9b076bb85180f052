import { collectWhenIdle } from './idle-collection';

describe('collectWhenIdle', () => {
  const holder = globalThis as { gc?: () => void };
  const exposed = holder.gc;
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    holder.gc = exposed;
  });

  it('runs one full collection once no call has come for 2 s, however many bursts came before', () => {
    const gc = jest.fn();
    holder.gc = gc;
    collectWhenIdle();
    jest.advanceTimersByTime(1500);
    collectWhenIdle();
    jest.advanceTimersByTime(1500);
    expect(gc).not.toHaveBeenCalled();
    jest.advanceTimersByTime(600);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('does nothing when the process runs without --expose-gc', () => {
    holder.gc = undefined;
    collectWhenIdle();
    expect(jest.getTimerCount()).toBe(0);
  });
});
