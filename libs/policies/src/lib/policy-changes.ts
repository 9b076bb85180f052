import { Injectable, Logger } from '@nestjs/common';
import { RedisPubSub } from '@acme/platform-redis';

export const POLICY_CHANGES_CHANNEL = 'rate-limit-policies:changed';

/** Tells every instance that the policy set changed (published after each committed write). */
@Injectable()
export class PolicyChanges {
  private readonly logger = new Logger(PolicyChanges.name);

  constructor(private readonly pubsub: RedisPubSub) {}

  /** Never fails the write that already committed: a lost message is logged, and readers may also poll. */
  async notifyChanged(): Promise<void> {
    try {
      await this.pubsub.publish(POLICY_CHANGES_CHANNEL, String(Date.now()));
    } catch (error) {
      this.logger.warn(`Could not publish a policy change: ${(error as Error).message}`);
    }
  }

  /** Resolves once the subscription is confirmed; the returned function unsubscribes. */
  onChanged(handler: () => void): Promise<() => void> {
    return this.pubsub.subscribe(POLICY_CHANGES_CHANNEL, () => handler());
  }
}
