import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { duplicateWithoutPrefix, type RedisClient } from './redis-client';

type Handler = (message: string) => void;

/**
 * Publish/subscribe on prefixed channels; one dedicated subscriber connection per process. On a cluster these
 * are classic channels, broadcast to every node: invalidations are rare, and a subscriber survives the loss of
 * any one node (docs/decisions.md#redis-cluster).
 */
export class RedisPubSub implements OnApplicationShutdown {
  private readonly logger = new Logger(RedisPubSub.name);
  private subscriber?: RedisClient;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly subscriptions = new Map<string, Promise<unknown>>();
  private ready?: Promise<RedisClient>;
  /** The last SUBSCRIBE sent; the next waits for it (see `subscribe`). */
  private lastSubscribe: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly publisher: RedisClient,
    private readonly prefix: string,
  ) {}

  channel(name: string): string {
    return `${this.prefix}:${name}`;
  }

  async publish(name: string, message: string): Promise<number> {
    return this.publisher.publish(this.channel(name), message);
  }

  /** Resolves once Redis has confirmed the subscription, so a publish after it is never missed. */
  async subscribe(name: string, handler: Handler): Promise<() => void> {
    const channel = this.channel(name);
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
      // One SUBSCRIBE at a time: a cluster's subscriber node connects lazily on the first, and one written while
      // that node's INFO ready check is still pending would put it in subscriber mode and fail the check.
      const subscribed = this.lastSubscribe
        .then(() => this.connection())
        .then((subscriber) => subscriber.subscribe(channel));
      this.lastSubscribe = subscribed.catch(() => undefined);
      // A failed first subscription is forgotten, so a later call tries again.
      subscribed.catch(() => {
        this.handlers.delete(channel);
        this.subscriptions.delete(channel);
      });
      this.subscriptions.set(channel, subscribed);
    }
    handlers.add(handler);
    const registered = handlers;
    await this.subscriptions.get(channel);
    return () => registered.delete(handler);
  }

  /**
   * The subscriber connection, once ioredis has finished its ready check: two first subscriptions racing with
   * that check would put the connection into subscriber mode before its INFO and fail.
   */
  private connection(): Promise<RedisClient> {
    this.ready ??= (async () => {
      this.subscriber = duplicateWithoutPrefix(this.publisher);
      this.subscriber.on('error', (error) => this.logger.warn(`Redis subscriber: ${error.message}`));
      this.subscriber.on('message', (channel: string, message: string) => {
        for (const handler of this.handlers.get(channel) ?? []) handler(message);
      });
      await this.subscriber.ping();
      return this.subscriber;
    })().catch((error: unknown) => {
      this.subscriber?.disconnect();
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscriber?.disconnect();
  }
}
