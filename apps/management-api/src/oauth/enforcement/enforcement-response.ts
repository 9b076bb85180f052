import { tooManyRequests } from '@acme/oauth';
import { EnforcementDecision } from '@acme/policies';
import { rateLimitHeaders } from '@acme/platform-rate-limiting';
import { sendRedirect, setResponseHeaders } from '@acme/platform-http';

/**
 * The HTTP edge of a rate-limit policy decision on the token response. Returns true when the response is
 * already answered (302 redirect); throws the OAuth 429 (`too_many_requests`, whose Retry-After and
 * X-RateLimit-* the exception filter derives from the decision); otherwise sets the bucket headers of a block
 * policy, and the token is issued.
 */
export function applyEnforcementDecision(decision: EnforcementDecision, response: unknown): boolean {
  switch (decision.outcome) {
    case 'proceed':
      if (decision.limit) setResponseHeaders(response, rateLimitHeaders(decision.limit));
      return false;
    case 'reject':
      throw tooManyRequests(decision.limit);
    case 'redirect':
      setResponseHeaders(response, { 'Cache-Control': 'no-store' });
      sendRedirect(response, decision.location, 302);
      return true;
  }
}
