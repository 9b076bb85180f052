import { TestingModuleBuilder } from '@nestjs/testing';
import { startTestApp, TestApp, TestDatabase } from '@acme/platform-testing';
import { AppModule } from '../../src/app.module';
import { communityService } from '../../src/service';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const API = (projectId: string) => `/api/v6/${projectId}/api/v7`;

export interface TestProject {
  id: string;
  serviceKey: string;
  masterKey: string;
}

export interface TestUser {
  id: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

export interface JsonResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** The community app in-process (own database and Redis prefix) with helpers for projects and users. */
export class CommunityTestApp {
  private userCounter = 0;

  private constructor(readonly app: TestApp) {}

  static async start(
    options: {
      env?: Record<string, string>;
      override?: (b: TestingModuleBuilder) => TestingModuleBuilder;
      database?: TestDatabase;
    } = {},
  ) {
    const app = await startTestApp({
      service: communityService,
      module: (env) => AppModule.forRoot(env),
      env: {
        ADMIN_TOKEN,
        COMMUNITY_AUTH_SECRET: 'test-secret-0123456789-0123456789-abcdef',
        // Every test signs its users up from one address, many at once: the tests of these limits set them back.
        SIGN_UPS_PER_ADDRESS_PER_MINUTE: '100000',
        SIGN_UPS_PER_ADDRESS_PER_HOUR: '100000',
        PASSWORD_HASH_MAX_QUEUED: '10000',
        ...options.env,
      },
      override: options.override,
      database: options.database,
    });
    return new CommunityTestApp(app);
  }

  /**
   * For tests of a start that must fail: the error's message, or `'started'` (the app is closed again at once,
   * so a failing expectation never leaves it listening).
   */
  static async startOutcome(options: Parameters<typeof CommunityTestApp.start>[0]): Promise<string> {
    return CommunityTestApp.start(options).then(
      async (started) => {
        await started.close();
        return 'started';
      },
      (error: Error) => error.message,
    );
  }

  get url(): string {
    return this.app.url;
  }

  close(): Promise<void> {
    return this.app.close();
  }

  /** Any request; `body` objects are sent as JSON, strings as given. */
  async request<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ): Promise<JsonResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    let body: string | undefined;
    if (typeof options.body === 'string') body = options.body;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.url}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : text;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  admin<T = any>(method: string, path: string, body?: unknown): Promise<JsonResponse<T>> {
    return this.request<T>(method, `/admin/v1${path}`, { body, token: ADMIN_TOKEN });
  }

  async createProject(
    bundles: string[] = ['push', 'spaces', 'files-images'],
    name = 'Test project',
  ): Promise<TestProject> {
    const response = await this.admin<TestProject>('POST', '/projects', { name, bundles });
    if (response.status !== 201) throw new Error(`createProject: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  async signUp(
    projectId: string,
    overrides: { email?: string; password?: string; name?: string } = {},
  ): Promise<TestUser> {
    const email = overrides.email ?? `user${++this.userCounter}-${Date.now()}@example.com`;
    const response = await this.request('POST', `${API(projectId)}/auth/sign-up`, {
      body: { email, password: overrides.password ?? 'correct horse battery', name: overrides.name },
    });
    if (response.status !== 201) throw new Error(`signUp: ${response.status} ${JSON.stringify(response.body)}`);
    return {
      id: response.body.user.id,
      email,
      accessToken: response.body.accessToken,
      refreshToken: response.body.refreshToken,
    };
  }
}
