import type { Request } from 'express';
import type { Caller, Project } from '@acme/community';

/** What the guards attach: the project from the path, then the authenticated caller. */
export interface CommunityRequest extends Request {
  project?: Project;
  caller?: Caller;
}
