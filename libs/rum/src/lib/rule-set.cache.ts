import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { safeErrorMessage } from '@acme/platform-observability';
import { RedisPubSub } from '@acme/platform-redis';
import { compileRuleSet, CompiledMatcher } from './matcher';
import { RuleSetStore } from './rule-set.store';
import { RULE_SET_CHANNEL } from './rule.types';

interface Entry {
  version: number;
  matcher: CompiledMatcher;
}

/**
 * Compiled matchers per application, one compile per rule-set version. A change notification (Redis pub/sub)
 * recompiles at once on every instance; the ingest path also passes the version it read with the client
 * token, so a lost notification cannot leave an instance on an old rule set.
 */
@Injectable()
export class RuleSetCache implements OnApplicationBootstrap {
  private readonly logger = new Logger(RuleSetCache.name);
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();
  private compiles = 0;

  constructor(
    private readonly store: RuleSetStore,
    private readonly pubsub: RedisPubSub,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.pubsub.subscribe(RULE_SET_CHANNEL, (message) => this.onChange(message));
  }

  /** How many rule sets this instance compiled (tests use it to see that compiles happen per version). */
  get compileCount(): number {
    return this.compiles;
  }

  cachedVersion(applicationId: string): number | undefined {
    return this.entries.get(applicationId)?.version;
  }

  async matcherFor(applicationId: string, version: number): Promise<CompiledMatcher> {
    const cached = this.entries.get(applicationId);
    if (cached && cached.version >= version) return cached.matcher;
    return (await this.load(applicationId, version)).matcher;
  }

  private onChange(message: string): void {
    let parsed: { application_id?: unknown; version?: unknown };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      return;
    }
    if (typeof parsed.application_id !== 'string' || typeof parsed.version !== 'number') return;
    const cached = this.entries.get(parsed.application_id);
    if (cached && cached.version >= parsed.version) return;
    this.load(parsed.application_id, parsed.version).catch((error: Error) =>
      this.logger.warn(`rule-set reload failed: ${safeErrorMessage(error)}`),
    );
  }

  private load(applicationId: string, version: number): Promise<Entry> {
    const key = `${applicationId}:${version}`;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.store
        .rulesAt(applicationId, version)
        .then((rules) => {
          this.compiles += 1;
          const entry = { version, matcher: compileRuleSet(rules) };
          const current = this.entries.get(applicationId);
          if (!current || current.version < version) this.entries.set(applicationId, entry);
          return entry;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }
}
