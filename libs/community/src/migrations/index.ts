import { CommunityCore1763700000000 } from './1763700000000-community-core';
import { ProjectRedirectOrigins1810000000000 } from './1810000000000-project-redirect-origins';

export { CommunityCore1763700000000, ProjectRedirectOrigins1810000000000 };

/** Migrations of projects, users and sessions; the app passes them to ServiceCoreModule first. */
export const COMMUNITY_MIGRATIONS = [CommunityCore1763700000000, ProjectRedirectOrigins1810000000000];
