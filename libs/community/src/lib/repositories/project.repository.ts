import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isUuid } from '@acme/platform-persistence';
import type { Bundle } from '../projects/bundles';
import { Project } from '../projects/project.entity';

export interface NewProject {
  name: string;
  bundles: Bundle[];
  redirectOrigins: string[];
  serviceKeyDigest: string;
  masterKeyDigest: string;
}

/** The operator-set parts of a project; an absent one is left as it is. */
export interface ProjectSettingsChange {
  bundles?: Bundle[];
  redirectOrigins?: string[];
}

/** The projects table (the tenants themselves: a project is its own scope). */
@Injectable()
export class ProjectRepository {
  constructor(@InjectRepository(Project) private readonly projects: Repository<Project>) {}

  insert(project: NewProject): Promise<Project> {
    return this.projects.save(this.projects.create(project));
  }

  /** The project, or undefined (also for ids that are not UUIDs). */
  async findById(id: string): Promise<Project | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.projects.findOneBy({ id })) ?? undefined;
  }

  /** Replaces the settings given (bundles, redirect origins); undefined when there is no such project. */
  async updateSettings(id: string, settings: ProjectSettingsChange): Promise<Project | undefined> {
    if (!isUuid(id)) return undefined;
    const project = await this.projects.findOneBy({ id });
    if (!project) return undefined;
    if (settings.bundles) project.bundles = settings.bundles;
    if (settings.redirectOrigins) project.redirectOrigins = settings.redirectOrigins;
    return this.projects.save(project);
  }
}
