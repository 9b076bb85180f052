import { CreateRateLimitPolicies1763700000000 } from './1763700000000-create-rate-limit-policies';

/** Migrations of the policies domain, in order (the app passes them to ServiceCoreModule). */
export const POLICIES_MIGRATIONS = [CreateRateLimitPolicies1763700000000];
