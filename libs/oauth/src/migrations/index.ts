import { CreateOAuthTables1763700000100 } from './1763700000100-create-oauth-tables';

import { ClientSettings1764000000100 } from './1764000000100-client-settings';
import { SigningKeyRotation1764000000300 } from './1764000000300-signing-key-rotation';
import { ClientCredentials1764000000400 } from './1764000000400-client-credentials';

export const OAUTH_MIGRATIONS = [
  CreateOAuthTables1763700000100,
  ClientSettings1764000000100,
  SigningKeyRotation1764000000300,
  ClientCredentials1764000000400,
];
