import { CreateOAuthTables1763700000100 } from './1763700000100-create-oauth-tables';

import { ClientSettings1764000000100 } from './1764000000100-client-settings';

export const OAUTH_MIGRATIONS = [CreateOAuthTables1763700000100, ClientSettings1764000000100];
