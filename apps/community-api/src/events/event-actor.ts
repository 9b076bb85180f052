import type { Caller, Project } from '@acme/community';
import type { EventActor } from '@acme/events';

/** The events domain's view of the guards' result: project, its bundles and who calls. */
export const toEventActor = (project: Project, caller: Caller): EventActor => ({
  projectId: project.id,
  bundles: project.bundles,
  kind: caller.kind,
  userId: caller.kind === 'user' ? caller.userId : null,
});
