import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { PoliciesErrors } from './policies.errors';
import { PolicyChanges } from './policy-changes';
import { decodeCursor, encodeCursor } from './policy-cursor';
import { PolicyConfiguration, PolicyConsumer, PolicyResource } from './policy-rules';
import { RateLimitPolicy } from './rate-limit-policy.entity';
import { PolicyFilter, PolicyListItem, RateLimitPolicyRepository } from './repositories/rate-limit-policy.repository';

export interface CreatePolicyCommand {
  resource: PolicyResource;
  consumer: PolicyConsumer;
  consumerSelector: string;
  configuration: PolicyConfiguration;
}

export interface PolicyPage {
  policies: PolicyListItem[];
  /** Present only when another page exists. */
  next?: string;
}

/** Auth0's form: `rlp_` and 21 URL-safe characters. */
export const newPolicyId = (): string => `rlp_${randomBytes(16).toString('base64url').slice(0, 21)}`;

/** The policy use cases; every committed write is announced to all instances. */
@Injectable()
export class RateLimitPolicyService {
  constructor(
    private readonly repository: RateLimitPolicyRepository,
    private readonly changes: PolicyChanges,
  ) {}

  async create(command: CreatePolicyCommand): Promise<RateLimitPolicy> {
    const created = await this.repository.insert({ id: newPolicyId(), ...command });
    if (!created) throw PoliciesErrors.conflict();
    await this.changes.notifyChanged();
    return created;
  }

  async get(id: string): Promise<RateLimitPolicy> {
    const policy = await this.repository.findById(id);
    if (!policy) throw PoliciesErrors.notFound(id);
    return policy;
  }

  /** One page in creation order; `from` is the opaque cursor of the previous page's `next`. */
  async list(filter: PolicyFilter, take: number, from?: string): Promise<PolicyPage> {
    const after = from === undefined ? undefined : decodeCursor(from);
    const rows = await this.repository.listPage(filter, take + 1, after);
    if (rows.length <= take) return { policies: rows };
    const policies = rows.slice(0, take);
    const last = policies[policies.length - 1];
    return { policies, next: encodeCursor({ createdAt: new Date(last.createdAt), id: last.id }) };
  }

  async updateConfiguration(id: string, configuration: PolicyConfiguration): Promise<RateLimitPolicy> {
    const updated = await this.repository.updateConfiguration(id, configuration);
    if (!updated) throw PoliciesErrors.notFound(id);
    await this.changes.notifyChanged();
    return updated;
  }

  async delete(id: string): Promise<void> {
    if (!(await this.repository.deleteById(id))) throw PoliciesErrors.notFound(id);
    await this.changes.notifyChanged();
  }
}
