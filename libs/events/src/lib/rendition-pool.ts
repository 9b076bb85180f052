/** Which waiting job starts first: renditions of an image already decoded before the next decode (memory). */
export type PoolPriority = 'rendition' | 'decode';

interface Waiter {
  start: () => void;
}

/**
 * The one queue every image operation of an instance goes through (decodes, resizes, encodes), so however many
 * requests arrive at once, at most `concurrency` sharp jobs hold pixels and libuv threads; the rest wait in order.
 * Renditions go before decodes so each decoded source is used up and released before another is decoded.
 */
export class RenditionPool {
  private running = 0;
  private readonly queues: Record<PoolPriority, Waiter[]> = { rendition: [], decode: [] };

  constructor(readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer');
  }

  /** Jobs started and not yet settled; with `waiting`, what a test or metric reads. */
  get active(): number {
    return this.running;
  }

  get waiting(): number {
    return this.queues.rendition.length + this.queues.decode.length;
  }

  async run<T>(priority: PoolPriority, job: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      await new Promise<void>((resolve) => this.queues[priority].push({ start: resolve }));
    } else {
      this.running += 1;
    }
    try {
      return await job();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.queues.rendition.shift() ?? this.queues.decode.shift();
    // The slot passes straight to the next job, so `running` stays as it is.
    if (next) next.start();
    else this.running -= 1;
  }
}
