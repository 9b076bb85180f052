import { CommunityVerification1763700001000 } from './1763700001000-community-verification';
import { CommunityVerificationRedirect1763700003000 } from './1763700003000-verification-redirect';
import { VerificationOneLiveCode1810000000100 } from './1810000000100-verification-one-live-code';

export {
  CommunityVerification1763700001000,
  CommunityVerificationRedirect1763700003000,
  VerificationOneLiveCode1810000000100,
};

/** Migrations of the verification and outbox tables; run after `COMMUNITY_MIGRATIONS` (they reference users). */
export const VERIFICATION_MIGRATIONS = [
  CommunityVerification1763700001000,
  CommunityVerificationRedirect1763700003000,
  VerificationOneLiveCode1810000000100,
];
