import { CreateOAuthTables1763700000100 } from './1763700000100-create-oauth-tables';

export const OAUTH_MIGRATIONS = [CreateOAuthTables1763700000100];
