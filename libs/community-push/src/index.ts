export * from './lib/push.errors';
export * from './lib/push.settings';
export * from './lib/device-registration';
export * from './lib/push-device.entity';
export * from './lib/push-device.service';
export * from './lib/repositories/push-device.repository';
export * from './lib/repositories/vapid-key.repository';
export * from './lib/vapid-keys';
export * from './lib/web-push.sender';
export * from './lib/push.module';
export * from './lib/migrations/1763700002000-community-push';

import { CommunityPush1763700002000 } from './lib/migrations/1763700002000-community-push';

/** Migrations of the push tables; run after `COMMUNITY_MIGRATIONS` (they reference community.users). */
export const PUSH_MIGRATIONS = [CommunityPush1763700002000];
export * from './lib/endpoint-address';
