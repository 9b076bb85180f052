export * from './lib/verification.errors';
export * from './lib/verification.settings';
export * from './lib/repositories/verification-token.repository';
export * from './lib/repositories/outbox.repository';
export * from './lib/mail/outbox-message.entity';
export * from './lib/mail/mailer';
export * from './lib/verification-token';
export * from './lib/verification-token.entity';
export * from './lib/verification-mail';
export * from './lib/email-verification.service';
export * from './lib/verification.module';
export * from './lib/migrations/1763700001000-community-verification';

import { CommunityVerification1763700001000 } from './lib/migrations/1763700001000-community-verification';
import { CommunityVerificationRedirect1763700003000 } from './lib/migrations/1763700003000-verification-redirect';

/** Migrations of the verification and outbox tables; run after `COMMUNITY_MIGRATIONS` (they reference users). */
export const VERIFICATION_MIGRATIONS = [CommunityVerification1763700001000, CommunityVerificationRedirect1763700003000];
