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
};

/** Default texts: the reason an InvalidParameter message gives after the parameter's name (and in logs). */
const MESSAGE: Readonly<Record<RumErrorCode, string>> = {
  [RumErrorCode.APP_KEY_INVALID]: 'A valid app key is required.',
  [RumErrorCode.APPLICATION_ACCESS_DENIED]: 'The key has no access to this application.',
  [RumErrorCode.CLIENT_TOKEN_INVALID]: 'A valid client token is required.',
  [RumErrorCode.RULE_NOT_FOUND]: 'No such rule in this application.',
  [RumErrorCode.RULE_NAME_TAKEN]: 'The rule name is already used in this application.',
  [RumErrorCode.ACCOUNT_NOT_FOUND]: 'No such account.',
  [RumErrorCode.APP_KEY_NOT_FOUND]: 'No such app key of this account.',
  [RumErrorCode.APPLICATION_NOT_FOUND]: 'No such application.',
  [RumErrorCode.FILTERS_INVALID]: 'The filters are invalid.',
};

export class RumError extends AppError {
  constructor(code: RumErrorCode, message?: string) {
    super(code, KIND[code], message ?? MESSAGE[code]);
    this.name = 'RumError';
  }
}

/** The first problem found in a rule's filters (its text names the filter path, never an HTTP location). */
export const invalidFilters = (problem: string): RumError => new RumError(RumErrorCode.FILTERS_INVALID, problem);
