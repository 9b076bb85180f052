import { ApiResponse, ClientsManager, JSONApiResponse, ManagementClient, VoidApiResponse } from 'auth0';

/**
 * auth0@4.37.1's ManagementClient has no rate-limit-policies manager. This adds one on the SDK's own
 * request layer (BaseAPI: base URL, token provider middleware, retries, error parsing), which the package
 * does not export by name, so it is reached as the base class of a generated manager.
 */
interface RequestOpts {
  path: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}
interface BaseApi {
  request(context: RequestOpts): Promise<Response>;
}
type BaseApiClass = new (configuration: unknown) => BaseApi;
const BaseAPI = Object.getPrototypeOf(ClientsManager) as BaseApiClass;

export interface RateLimitPolicy {
  id: string;
  resource: string;
  consumer: string;
  consumer_selector: string;
  configuration: Record<string, unknown>;
  created_at?: string;
  updated_at?: string;
}

export class RateLimitPoliciesManager extends BaseAPI {
  async getAll(
    query: { take?: number; from?: string; resource?: string; consumer?: string; consumer_selector?: string } = {},
  ): Promise<ApiResponse<{ rate_limit_policies: RateLimitPolicy[]; next?: string }>> {
    const clean = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<
      string,
      string | number
    >;
    return JSONApiResponse.fromResponse(
      await this.request({ path: '/rate-limit-policies', method: 'GET', query: clean }),
    );
  }

  async create(body: Omit<RateLimitPolicy, 'id' | 'created_at' | 'updated_at'>): Promise<ApiResponse<RateLimitPolicy>> {
    return JSONApiResponse.fromResponse(
      await this.request({
        path: '/rate-limit-policies',
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      }),
    );
  }

  async get(id: string): Promise<ApiResponse<RateLimitPolicy>> {
    return JSONApiResponse.fromResponse(
      await this.request({ path: `/rate-limit-policies/${encodeURIComponent(id)}`, method: 'GET' }),
    );
  }

  async update(id: string, body: { configuration: Record<string, unknown> }): Promise<ApiResponse<RateLimitPolicy>> {
    return JSONApiResponse.fromResponse(
      await this.request({
        path: `/rate-limit-policies/${encodeURIComponent(id)}`,
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body,
      }),
    );
  }

  async delete(id: string): Promise<ApiResponse<undefined>> {
    return VoidApiResponse.fromResponse(
      await this.request({ path: `/rate-limit-policies/${encodeURIComponent(id)}`, method: 'DELETE' }),
    );
  }

  /** Checkpoint pagination as Auth0 does it: follow `next` until it is absent. */
  async *iterate(query: { take?: number; consumer_selector?: string } = {}): AsyncGenerator<RateLimitPolicy[]> {
    let from: string | undefined;
    do {
      const { data } = await this.getAll({ ...query, from });
      yield data.rate_limit_policies;
      from = data.next;
    } while (from);
  }
}

/** The official client plus the missing manager, sharing its configuration (token, fetch, retries). */
export class AcmeManagementClient extends ManagementClient {
  readonly rateLimitPolicies = new RateLimitPoliciesManager(this.configuration);
}
