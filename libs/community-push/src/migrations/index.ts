import { CommunityPush1763700002000 } from './1763700002000-community-push';

export { CommunityPush1763700002000 };

/** Migrations of the push tables; run after `COMMUNITY_MIGRATIONS` (they reference community.users). */
export const PUSH_MIGRATIONS = [CommunityPush1763700002000];
