import { AppErrorKind } from './app-error';

/** The normalised failure handed to an app's presenter. */
export interface PresentableError {
  status: number;
  code: string;
  kind: AppErrorKind;
  message: string;
  details?: Record<string, unknown>;
  requestId: string;
  /** The request's path without its query (a presenter whose API mixes two error shapes picks by it). */
  path?: string;
  /** The request's method (a presenter may name a route's own code for its body failures). */
  method?: string;
}

export interface PresentedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Each app renders failures in its own wire shape through one pure function. */
export type ErrorPresenter = (error: PresentableError) => PresentedError;

/** Reason phrases for the statuses we emit (Auth0-style bodies name them). */
export const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
