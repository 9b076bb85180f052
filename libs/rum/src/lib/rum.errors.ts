import { AppError, AppErrorKind } from '@acme/platform-errors';

/** Internal codes of the RUM domain; the app's presenter maps each to its wire code and status. */
export enum RumErrorCode {
  APP_KEY_INVALID = 'APP_KEY_INVALID',
  APPLICATION_ACCESS_DENIED = 'APPLICATION_ACCESS_DENIED',
  CLIENT_TOKEN_INVALID = 'CLIENT_TOKEN_INVALID',
  RULE_NOT_FOUND = 'RULE_NOT_FOUND',
  RULE_NAME_TAKEN = 'RULE_NAME_TAKEN',
  ACCOUNT_NOT_FOUND = 'ACCOUNT_NOT_FOUND',
  APP_KEY_NOT_FOUND = 'APP_KEY_NOT_FOUND',
  APPLICATION_NOT_FOUND = 'APPLICATION_NOT_FOUND',
  FILTERS_INVALID = 'FILTERS_INVALID',
  RULE_SET_LIMIT = 'RULE_SET_LIMIT',
}

const KIND: Readonly<Record<RumErrorCode, AppErrorKind>> = {
  [RumErrorCode.APP_KEY_INVALID]: 'unauthorized',
  [RumErrorCode.APPLICATION_ACCESS_DENIED]: 'forbidden',
  [RumErrorCode.CLIENT_TOKEN_INVALID]: 'unauthorized',
  [RumErrorCode.RULE_NOT_FOUND]: 'not_found',
  [RumErrorCode.RULE_NAME_TAKEN]: 'conflict',
  [RumErrorCode.ACCOUNT_NOT_FOUND]: 'not_found',
  [RumErrorCode.APP_KEY_NOT_FOUND]: 'not_found',
  [RumErrorCode.APPLICATION_NOT_FOUND]: 'not_found',
  [RumErrorCode.FILTERS_INVALID]: 'validation',
  [RumErrorCode.RULE_SET_LIMIT]: 'validation',
};

/** A failure of the RUM domain; its kind follows from the code. */
export class RumError extends AppError {
  constructor(code: RumErrorCode, message: string) {
    super(code, KIND[code], message);
    this.name = 'RumError';
  }
}

/**
 * The domain's failures with their texts, worded once. A text is the reason an InvalidParameter message gives
 * after the parameter's name (and what logs show); it names a filter path, never an HTTP location.
 */
export const RumErrors = {
  appKeyInvalid: () => new RumError(RumErrorCode.APP_KEY_INVALID, 'A valid app key is required.'),
  applicationAccessDenied: () =>
    new RumError(RumErrorCode.APPLICATION_ACCESS_DENIED, 'The key has no access to this application.'),
  clientTokenInvalid: () => new RumError(RumErrorCode.CLIENT_TOKEN_INVALID, 'A valid client token is required.'),
  ruleNotFound: () => new RumError(RumErrorCode.RULE_NOT_FOUND, 'No such rule in this application.'),
  ruleNameTaken: () => new RumError(RumErrorCode.RULE_NAME_TAKEN, 'The rule name is already used in this application.'),
  accountNotFound: () => new RumError(RumErrorCode.ACCOUNT_NOT_FOUND, 'No such account.'),
  appKeyNotFound: () => new RumError(RumErrorCode.APP_KEY_NOT_FOUND, 'No such app key of this account.'),
  applicationNotFound: () => new RumError(RumErrorCode.APPLICATION_NOT_FOUND, 'No such application.'),
  /** The first problem found in a rule's filters. */
  invalidFilters: (problem: string) => new RumError(RumErrorCode.FILTERS_INVALID, problem),
  tooManyRules: (maxRules: number) =>
    new RumError(RumErrorCode.RULE_SET_LIMIT, `An application may hold at most ${maxRules} rules.`),
  filtersTooLarge: (maxFilterBytes: number) =>
    new RumError(
      RumErrorCode.RULE_SET_LIMIT,
      `The filters of an application's rules may total at most ${maxFilterBytes} bytes.`,
    ),
};
