import sharp from 'sharp';
import { waitFor } from '@acme/platform-test-infra';
import { keepAliveLoad, slowMultipart } from './support/keep-alive-load';
import { call, SourceService, startServiceFromSource } from './support/source-service';

const ADMIN = 'shutdown-admin-token-0123456789';
const DRAIN_MS = 1500;
const TIMEOUT_MS = 8000;
const env = {
  ADMIN_TOKEN: ADMIN,
  LOG_LEVEL: 'warn',
  SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
  SHUTDOWN_TIMEOUT_MS: String(TIMEOUT_MS),
};

async function exitOf(service: SourceService): Promise<{ code: number | null; at: number }> {
  const child = service.service.child;
  if (child.exitCode !== null) return { code: child.exitCode, at: Date.now() };
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
}

/** 50 keep-alive clients on a cheap route from before SIGTERM until the process is gone. */
async function underLoad(service: SourceService, path: string, during: (signalledAt: number) => Promise<void>) {
  const load = keepAliveLoad(`${service.url}${path}`, 50);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const exited = exitOf(service);
  const signalledAt = Date.now();
  service.service.child.kill('SIGTERM');
  // The signal reaches the process asynchronously: /health must say `draining` within a moment of it.
  const health = await waitFor(
    async () => {
      const response = await fetch(`${service.url}/health`);
      return response.status === 503
        ? { status: response.status, body: await response.json(), after: Date.now() - signalledAt }
        : undefined;
    },
    { timeoutMs: 300, intervalMs: 10, what: '/health 503 draining' },
  );
  expect(health).toMatchObject({ status: 503, body: { status: 'draining' } });
  // Readiness drains with it; liveness stays 200 (an orchestrator must not kill a draining instance).
  const [ready, live] = await Promise.all(['ready', 'live'].map((probe) => fetch(`${service.url}/health/${probe}`)));
  expect({ ready: ready.status, readyBody: await ready.json(), live: live.status }).toEqual({
    ready: 503,
    readyBody: expect.objectContaining({ status: 'draining' }),
    live: 200,
  });
  await during(signalledAt);
  const { code, at } = await exited;
  await load.stop();
  const before = load.outcomes.filter((outcome) => outcome.sentAt < signalledAt);
  const failedBefore = before.filter((outcome) => outcome.error !== undefined || outcome.status === undefined);
  const inDrain = load.outcomes.filter(
    (outcome) => outcome.sentAt >= signalledAt && outcome.sentAt < signalledAt + DRAIN_MS - 100,
  );
  return {
    code,
    exitMs: at - signalledAt,
    sentBefore: before.length,
    failedBefore,
    inDrainFailed: inDrain.filter((o) => o.error !== undefined),
    // When the drain ends the listener closes: a new connection is refused then, or reset by the kernel if it
    // was still queued for accept (never seen by the app: a refusal too). Any other failure, and any failure on a
    // reused keep-alive socket, means a socket was closed under a client told it could reuse it.
    resets: load.outcomes.filter(
      (o) =>
        o.error !== undefined &&
        o.error !== 'ECONNREFUSED' &&
        (o.reused !== false || o.sentAt < signalledAt + DRAIN_MS - 200),
    ),
    statusesBefore: new Set(before.map((o) => o.status)),
  };
}

/**
 * SIGTERM under keep-alive load: /health reports draining at once, every request sent before the signal gets its
 * answer (an upload still streaming included), and the process exits within SHUTDOWN_TIMEOUT_MS, for both engines.
 */
describe('shutdown on SIGTERM', () => {
  it('community-api (Express): 50 keep-alive clients and an upload in flight lose nothing', async () => {
    const service = await startServiceFromSource('community-api', env);
    try {
      const project = (
        await call(`${service.url}/admin/v1/projects`, {
          body: { name: 'shutdown', bundles: ['files-images'] },
          headers: { authorization: `Bearer ${ADMIN}` },
        })
      ).body;
      const user = (
        await call(`${service.url}/api/v6/${project.id}/api/v7/auth/sign-up`, {
          body: { email: 'down@example.com', password: 'correct horse battery' },
        })
      ).body;
      const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c33' } })
        .png()
        .toBuffer();
      let upload: Awaited<ReturnType<typeof slowMultipart>['done']> | undefined;
      const result = await underLoad(
        service,
        `/api/v6/${project.id}/api/v7/push-notifications/vapid-public-key`,
        async () => {
          // Sent before nothing else: the first half was on the wire before SIGTERM's drain ends; the rest follows after it.
          const slow = slowMultipart(
            `${service.url}/api/v6/${project.id}/api/v7/events`,
            { authorization: `Bearer ${user.accessToken}` },
            {
              fields: {
                title: 'Shutdown party',
                startTime: new Date(Date.now() + 86_400_000).toISOString(),
                type: 'online',
                url: 'https://x.example/live',
                'cover.options': JSON.stringify({
                  mode: 'exact-dimensions',
                  dimensions: { thumb: { width: 50, height: 50 } },
                }),
              },
              file: { field: 'cover', name: 'c.png', type: 'image/png', data: image },
            },
            DRAIN_MS + 1200,
          );
          await slow.firstHalfSent;
          upload = await slow.done;
        },
      );
      expect({ status: upload?.status, body: upload?.body }).toEqual({
        status: 201,
        body: upload?.status === 201 ? upload.body : '(a created event)',
      });
      expect(result.sentBefore).toBeGreaterThan(50);
      expect(result.failedBefore).toEqual([]);
      expect(result.inDrainFailed).toEqual([]);
      expect(result.resets).toEqual([]);
      expect(result.code).toBe(0);
      expect(result.exitMs).toBeLessThan(TIMEOUT_MS + 1500);
    } finally {
      await service.stop();
    }
  }, 120_000);

  it('management-api (Fastify): 50 keep-alive clients lose nothing and errors keep the Auth0 shape', async () => {
    const service = await startServiceFromSource('management-api', {
      ...env,
      MANAGEMENT_BOOTSTRAP_CLIENT_ID: 'down',
      MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: 'down-secret-0123456789abcdef',
      PUBLIC_URL: 'https://tenant.test',
    });
    try {
      const result = await underLoad(service, '/.well-known/jwks.json', async (signalledAt) => {
        const during = await call(`${service.url}/api/v2/clients`);
        expect(during).toMatchObject({ status: 401, body: { statusCode: 401, errorCode: expect.any(String) } });
        expect(Date.now() - signalledAt).toBeLessThan(DRAIN_MS);
      });
      expect(result.sentBefore).toBeGreaterThan(50);
      expect(result.failedBefore).toEqual([]);
      expect(result.inDrainFailed).toEqual([]);
      expect(result.resets).toEqual([]);
      expect([...result.statusesBefore]).toEqual([200]);
      expect(result.code).toBe(0);
      expect(result.exitMs).toBeLessThan(TIMEOUT_MS + 1500);
    } finally {
      await service.stop();
    }
  }, 120_000);

  it('cuts a request that never ends at SHUTDOWN_TIMEOUT_MS and exits', async () => {
    const service = await startServiceFromSource('community-api', { ...env, SHUTDOWN_TIMEOUT_MS: '2500' });
    try {
      const project = (
        await call(`${service.url}/admin/v1/projects`, {
          body: { name: 'stuck', bundles: ['files-images'] },
          headers: { authorization: `Bearer ${ADMIN}` },
        })
      ).body;
      const user = (
        await call(`${service.url}/api/v6/${project.id}/api/v7/auth/sign-up`, {
          body: { email: 'stuck@example.com', password: 'correct horse battery' },
        })
      ).body;
      const headers = { authorization: `Bearer ${user.accessToken}` };
      const stuck = slowMultipart(
        `${service.url}/api/v6/${project.id}/api/v7/events`,
        headers,
        { fields: { title: 'never ends', type: 'online' } },
        -1,
      );
      await stuck.firstHalfSent;
      await waitFor(async () => (await fetch(`${service.url}/health`)).status === 200, { what: 'healthy' });
      const exited = exitOf(service);
      const signalledAt = Date.now();
      service.service.child.kill('SIGTERM');
      const { code, at } = await exited;
      expect(code).toBe(0);
      expect(at - signalledAt).toBeGreaterThanOrEqual(2400);
      expect(at - signalledAt).toBeLessThan(2500 + 2000);
      expect(await stuck.done).toMatchObject({ error: expect.any(String) });
    } finally {
      await service.stop();
    }
  }, 60_000);
});
