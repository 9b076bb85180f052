import { CommunityCore1763700000000 } from './1763700000000-community-core';
import { CommunityVerification1763700001000 } from './1763700001000-community-verification';

export { CommunityCore1763700000000, CommunityVerification1763700001000 };

/** Migrations of the community domain tables, in order; the app passes them to ServiceCoreModule. */
export const COMMUNITY_MIGRATIONS = [CommunityCore1763700000000, CommunityVerification1763700001000];
