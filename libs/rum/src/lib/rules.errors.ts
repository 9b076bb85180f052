import { AppError } from '@acme/platform-errors';

/** Domain failures; the app's presenter turns each kind into the spec's code and status. */
export const RulesErrors = {
  unknownAppKey: () => new AppError('APP_KEY_INVALID', 'unauthorized', 'A valid app_key is required.'),
  noAccess: () => new AppError('APPLICATION_ACCESS_DENIED', 'forbidden', 'The key has no access to this application.'),
  unknownClientToken: () => new AppError('CLIENT_TOKEN_INVALID', 'unauthorized', 'A valid X-RUM-Client-Token is required.'),
  ruleNotFound: () => new AppError('RULE_NOT_FOUND', 'not_found', 'No such rule in this application.'),
  ruleNameTaken: () => new AppError('RULE_NAME_TAKEN', 'conflict', 'rule_name is already used in this application.'),
  accountNotFound: () => new AppError('ACCOUNT_NOT_FOUND', 'not_found', 'No such account.'),
  appKeyNotFound: () => new AppError('APP_KEY_NOT_FOUND', 'not_found', 'No such app key of this account.'),
  applicationNotFound: () => new AppError('APPLICATION_NOT_FOUND', 'not_found', 'No such application.'),
  invalidFilters: (problem: string) => new AppError('FILTERS_INVALID', 'validation', problem, { details: { location: 'body', issues: [{ property: 'filters', constraints: [problem] }] } }),
};
