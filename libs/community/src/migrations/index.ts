import { CommunityCore1763700000000 } from './1763700000000-community-core';

export { CommunityCore1763700000000 };

/** Migrations of projects, users and sessions; the app passes them to ServiceCoreModule first. */
export const COMMUNITY_MIGRATIONS = [CommunityCore1763700000000];
