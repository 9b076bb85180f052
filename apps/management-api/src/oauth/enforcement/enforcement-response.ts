import { oauthError } from '@acme/oauth';
import { EnforcementDecision } from '@acme/policies';
import { sendRedirect, setResponseHeaders } from '@acme/platform-http';

export const TOO_MANY_REQUESTS_DESCRIPTION =
  'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.';

/**
 * Carries out a rate-limit policy decision on the token response. Returns true when the response is
 * already answered (302 redirect); throws the OAuth 429 (`too_many_requests` with Retry-After and
 * X-RateLimit-*); otherwise sets the bucket headers, if any, and the token is issued.
 */
export function applyEnforcementDecision(decision: EnforcementDecision, response: unknown): boolean {
  switch (decision.outcome) {
    case 'proceed':
      setResponseHeaders(response, decision.headers);
      return false;
    case 'reject':
      throw oauthError('too_many_requests', TOO_MANY_REQUESTS_DESCRIPTION, { headers: decision.headers });
    case 'redirect':
      setResponseHeaders(response, { 'Cache-Control': 'no-store' });
      sendRedirect(response, decision.location, 302);
      return true;
  }
}
