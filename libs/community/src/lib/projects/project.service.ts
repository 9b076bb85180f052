import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { digestSecret, generateSecret, safeEqual } from '@acme/platform-auth';
import { RedisPubSub } from '@acme/platform-redis';
import { CommunityErrors } from '../community.errors';
import { ProjectRepository } from '../repositories/project.repository';
import { normalizeBundles } from './bundles';
import { Project } from './project.entity';
import { normalizeRedirectOrigins } from './redirect-origins';

/** What the operator gets once, at creation. */
export interface CreatedProject {
  project: Project;
  serviceKey: string;
  masterKey: string;
}

export type ProjectKeyKind = 'service' | 'master';

/** What the operator may change on a project; an absent field is left as it is. */
export interface ProjectChange {
  bundles?: readonly string[];
  redirectOrigins?: readonly string[];
}

const CACHE_TTL_MS = 5000;
const INVALIDATION_CHANNEL = 'community:projects:changed';

/** Projects, their bundles and keys. Lookups are cached briefly per instance; changes invalidate every instance. */
@Injectable()
export class ProjectService implements OnModuleInit, OnModuleDestroy {
  private readonly cache = new Map<string, { project: Project; until: number }>();
  private unsubscribe?: () => void;

  constructor(
    private readonly projects: ProjectRepository,
    private readonly pubsub: RedisPubSub,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(INVALIDATION_CHANNEL, (id) => this.cache.delete(id));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  async create(name: string, settings: ProjectChange = {}): Promise<CreatedProject> {
    const serviceKey = generateSecret('sk_');
    const masterKey = generateSecret('mk_');
    const project = await this.projects.insert({
      name,
      bundles: normalizeBundles(settings.bundles ?? []),
      redirectOrigins: normalizeRedirectOrigins(settings.redirectOrigins ?? []),
      serviceKeyDigest: digestSecret(serviceKey),
      masterKeyDigest: digestSecret(masterKey),
    });
    return { project, serviceKey, masterKey };
  }

  async update(id: string, change: ProjectChange): Promise<Project> {
    const saved = await this.projects.updateSettings(id, {
      bundles: change.bundles && normalizeBundles(change.bundles),
      redirectOrigins: change.redirectOrigins && normalizeRedirectOrigins(change.redirectOrigins),
    });
    if (!saved) throw CommunityErrors.projectNotFound();
    this.cache.delete(id);
    await this.pubsub.publish(INVALIDATION_CHANNEL, id);
    return saved;
  }

  /** The project, or 404 `project/not-found` (also for ids that are not UUIDs). */
  async getById(id: string, options: { fresh?: boolean } = {}): Promise<Project> {
    const cached = this.cache.get(id);
    if (!options.fresh && cached && cached.until > Date.now()) return cached.project;
    const project = await this.projects.findById(id);
    if (!project) throw CommunityErrors.projectNotFound();
    this.cache.set(id, { project, until: Date.now() + CACHE_TTL_MS });
    return project;
  }

  /** Which of this project's keys was presented, if any (constant-time comparison of digests). */
  matchKey(project: Project, presented: string): ProjectKeyKind | undefined {
    const digest = digestSecret(presented);
    if (presented.startsWith('sk_') && safeEqual(digest, project.serviceKeyDigest)) return 'service';
    if (presented.startsWith('mk_') && safeEqual(digest, project.masterKeyDigest)) return 'master';
    return undefined;
  }
}
