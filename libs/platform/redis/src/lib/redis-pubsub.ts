import { Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';

type Handler = (message: string) => void;

/** Publish/subscribe on prefixed channels; one dedicated subscriber connection per process. */
export class RedisPubSub implements OnApplicationShutdown {
  private readonly logger = new Logger(RedisPubSub.name);
  private subscriber?: Redis;
  private readonly handlers = new Map<string, Set<Handler>>();

  constructor(
    private readonly publisher: Redis,
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
    const subscriber = this.connection();
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
      await subscriber.subscribe(channel);
    }
    handlers.add(handler);
    return () => handlers!.delete(handler);
  }

  private connection(): Redis {
    if (!this.subscriber) {
      this.subscriber = this.publisher.duplicate({ keyPrefix: undefined });
      this.subscriber.on('error', (error) => this.logger.warn(`Redis subscriber: ${error.message}`));
      this.subscriber.on('message', (channel: string, message: string) => {
        for (const handler of this.handlers.get(channel) ?? []) handler(message);
      });
    }
    return this.subscriber;
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscriber?.disconnect();
  }
}
