import type { IncomingHttpHeaders } from 'node:http';
import type { Caller, Project } from '@acme/community';

/** What the guards attach: the project from the path, then the authenticated caller. */
export interface CommunityRequest {
  headers: IncomingHttpHeaders;
  params: Record<string, string>;
  body?: unknown;
  /** The client address through the trusted proxies (both engines set it). */
  ip?: string;
  project?: Project;
  caller?: Caller;
}
