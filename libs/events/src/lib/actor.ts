/** Who is calling, as the app's guards resolved it; every use case is scoped to `projectId`. */
export interface EventActor {
  projectId: string;
  /** Bundles enabled for the project (`spaces`, `files-images`, ...). */
  bundles: readonly string[];
  kind: 'user' | 'service' | 'master';
  /** The end user behind a user token; null for service and master keys. */
  userId: string | null;
}

export const BUNDLE_SPACES = 'spaces';
export const BUNDLE_FILES_IMAGES = 'files-images';

/** Port: does this user exist in this project? The app adapts the users module to it. */
export abstract class EventUserDirectory {
  abstract userExists(projectId: string, userId: string): Promise<boolean>;
}
