import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EnforceablePolicySource } from './enforceable-policy';
import { PolicyEnforcementSettings } from './policy-enforcement.settings';
import { PolicySet } from './policy-set';

/**
 * This instance's copy of the policies: loaded once at start, reloaded whenever any instance publishes a
 * change, so a token request never queries the database. A slow periodic reload is only a backstop for a
 * notification lost while the subscriber connection was down.
 */
@Injectable()
export class EnforcementPolicyCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EnforcementPolicyCache.name);
  private set = PolicySet.empty;
  private loading?: Promise<void>;
  private stale = false;
  private timer?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private closed = false;
  private loads = 0;
  /** The source's fingerprint taken just before the current set was loaded. */
  private loadedFingerprint?: string;

  constructor(
    private readonly source: EnforceablePolicySource,
    private readonly settings: PolicyEnforcementSettings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Subscribe first: a change committed between the load and the subscription would otherwise be missed.
    await this.source.onChanged(() => void this.refresh());
    await this.refresh();
    if (this.settings.reloadIntervalSeconds > 0) {
      this.timer = setInterval(() => void this.refreshIfChanged(), this.settings.reloadIntervalSeconds * 1000);
      this.timer.unref();
    }
  }

  onApplicationShutdown(): void {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.retry);
  }

  current(): PolicySet {
    return this.set;
  }

  /** How many loads completed (tests and diagnostics). */
  get loadCount(): number {
    return this.loads;
  }

  /** Reloads; a change announced during a load triggers one more load so the last change always wins. */
  refresh(): Promise<void> {
    if (this.loading) {
      this.stale = true;
      return this.loading;
    }
    this.loading = this.loadUntilFresh().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /**
   * The backstop tick: reloads only when the source's fingerprint moved since the last load (a full load of a
   * large policy table blocks the event loop for a while; the fingerprint is one small query).
   */
  async refreshIfChanged(): Promise<void> {
    if (this.loading) return this.loading;
    const fingerprint = await this.source.fingerprint().catch(() => undefined);
    if (fingerprint !== undefined && fingerprint === this.loadedFingerprint) return;
    return this.refresh();
  }

  private async loadUntilFresh(): Promise<void> {
    do {
      this.stale = false;
      try {
        // Taken before the load: a change between the two shows up as a new fingerprint on the next tick.
        const fingerprint = await this.source.fingerprint().catch(() => undefined);
        this.set = PolicySet.from(await this.source.loadAll());
        this.loadedFingerprint = fingerprint;
        this.loads += 1;
      } catch (error) {
        // Keep enforcing the last known policies; try again shortly.
        this.logger.error({ err: error, msg: 'Reloading rate-limit policies failed; keeping the previous set' });
        if (!this.closed) {
          clearTimeout(this.retry);
          this.retry = setTimeout(() => void this.refresh(), 1000);
          this.retry.unref();
        }
        return;
      }
    } while (this.stale && !this.closed);
  }
}
