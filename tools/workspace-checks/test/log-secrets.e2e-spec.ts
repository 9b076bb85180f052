import { call, secretFindings, SourceService, startServiceFromSource } from './support/source-service';

/**
 * Each service at LOG_LEVEL=trace is driven through its error paths (refused input, unique violations,
 * writes failing in PostgreSQL with secret-bearing parameters, a database dropped under it) with
 * recognisable secrets; its whole output may then hold none of them, in clear or as a stored digest.
 */
describe('no secrets in logs', () => {
  const mark = (label: string) => `LOGSCAN-${label}-${Math.random().toString(36).slice(2, 10)}`;
  let running: SourceService | undefined;
  afterEach(async () => {
    await running?.service.stop();
  });

  async function finish(service: SourceService, secrets: string[]): Promise<void> {
    running = undefined;
    const output = await service.stop();
    expect(output.length).toBeGreaterThan(0);
    expect(output).toContain('"level":50');
    expect(secretFindings(output, secrets)).toEqual([]);
  }

  it('management-api', async () => {
    const bootstrapSecret = mark('bootstrap');
    const adminToken = mark('admin');
    const env = {
      MANAGEMENT_BOOTSTRAP_CLIENT_ID: 'logscan',
      MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: bootstrapSecret,
      MANAGEMENT_CLIENT_SECRET_KEY: mark('sealing-key'),
      ADMIN_TOKEN: adminToken,
      PUBLIC_URL: 'https://tenant.test',
    };
    const service = (running = await startServiceFromSource('management-api', env));
    const token = (secret: string) =>
      call(`${service.url}/oauth/token`, {
        body: {
          grant_type: 'client_credentials',
          client_id: 'logscan',
          client_secret: secret,
          audience: 'https://tenant.test/api/v2/',
        },
      });
    const issued = await token(bootstrapSecret);
    expect(issued.status).toBe(200);
    const bearer = { authorization: `Bearer ${issued.body.access_token}` };
    expect((await token(mark('wrong'))).status).toBe(401);
    expect(
      (
        await call(`${service.url}/oauth/token`, {
          body: { grant_type: 'client_credentials', client_id: 'x\u0000', client_secret: bootstrapSecret },
        })
      ).status,
    ).toBe(400);
    const created = await call(`${service.url}/api/v2/clients`, { body: { name: 'scanned' }, headers: bearer });
    expect(created.status).toBe(201);
    const grant = {
      client_id: created.body.client_id,
      audience: 'https://tenant.test/api/v2/',
      scope: ['read:clients'],
    };
    expect((await call(`${service.url}/api/v2/client-grants`, { body: grant, headers: bearer })).status).toBe(201);
    expect((await call(`${service.url}/api/v2/client-grants`, { body: grant, headers: bearer })).status).toBe(409);
    await service.refuseWrites();
    expect(
      (await call(`${service.url}/api/v2/clients`, { body: { name: 'refused' }, headers: bearer })).status,
    ).toBeGreaterThanOrEqual(500);
    await service.killDatabase();
    expect(
      (await call(`${service.url}/api/v2/clients`, { body: { name: 'dead' }, headers: bearer })).status,
    ).toBeGreaterThanOrEqual(500);
    await token(created.body.client_secret);
    await finish(service, [
      bootstrapSecret,
      adminToken,
      env.MANAGEMENT_CLIENT_SECRET_KEY,
      issued.body.access_token,
      created.body.client_secret,
    ]);
  }, 180_000);

  it('community-api', async () => {
    const adminToken = mark('admin');
    const env = { ADMIN_TOKEN: adminToken, COMMUNITY_AUTH_SECRET: mark('auth-secret-0123456789abcdef0123') };
    const service = (running = await startServiceFromSource('community-api', env));
    const admin = { authorization: `Bearer ${adminToken}` };
    const project = (
      await call(`${service.url}/admin/v1/projects`, { body: { name: 'scan', bundles: ['push'] }, headers: admin })
    ).body;
    const api = `${service.url}/api/v6/${project.id}/api/v7`;
    const password = mark('password');
    const signedUp = await call(`${api}/auth/sign-up`, { body: { email: 'scan@example.com', password } });
    expect(signedUp.status).toBe(201);
    const user = { authorization: `Bearer ${signedUp.body.accessToken}` };
    expect((await call(`${api}/auth/sign-up`, { body: { email: 'scan@example.com', password } })).status).toBe(409);
    expect(
      (await call(`${api}/auth/sign-in`, { body: { email: 'scan@example.com', password: mark('wrong') } })).status,
    ).toBe(401);
    expect(
      (await call(`${api}/auth/send-verification`, { body: { tokenFormat: 'numeric' }, headers: user })).status,
    ).toBe(200);
    const outbox = (await call(`${service.url}/admin/v1/projects/${project.id}/outbox`, { headers: admin })).body;
    const code = /code for .* is: (\S+)/.exec(outbox[0].text)?.[1] as string;
    expect((await call(`${api}/auth/verify-email`, { body: { token: `${code}9` }, headers: user })).status).toBe(400);
    const p256dh = mark('p256dh');
    const auth = mark('push-auth');
    await service.refuseWrites();
    const refusedPassword = mark('refused-password');
    expect(
      (await call(`${api}/auth/sign-up`, { body: { email: 'refused@example.com', password: refusedPassword } })).status,
    ).toBeGreaterThanOrEqual(500);
    const device = {
      platform: 'web',
      subscription: { endpoint: 'https://push.example.com/send/scan', keys: { p256dh, auth } },
    };
    expect(
      (await call(`${api}/push-notifications/devices`, { body: device, headers: user })).status,
    ).toBeGreaterThanOrEqual(500);
    expect(
      (await call(`${api}/auth/verify-email`, { body: { token: code }, headers: user })).status,
    ).toBeGreaterThanOrEqual(400);
    await service.killDatabase();
    expect(
      (await call(`${api}/auth/sign-in`, { body: { email: 'scan@example.com', password } })).status,
    ).toBeGreaterThanOrEqual(500);
    const secrets = [
      adminToken,
      env.COMMUNITY_AUTH_SECRET,
      password,
      refusedPassword,
      signedUp.body.accessToken,
      signedUp.body.refreshToken,
      project.serviceKey,
      project.masterKey,
      code,
      p256dh,
      auth,
    ];
    await finish(service, secrets);
  }, 180_000);

  it('rum-ingestion', async () => {
    const adminToken = mark('admin');
    const service = (running = await startServiceFromSource('rum-ingestion', { ADMIN_TOKEN: adminToken }));
    const admin = { authorization: `Bearer ${adminToken}` };
    const account = (await call(`${service.url}/admin/v1/accounts`, { body: { name: 'scan' }, headers: admin })).body;
    const application = (
      await call(`${service.url}/admin/v1/applications`, {
        body: { name: 'scan-web', owner_account_id: account.account_id },
        headers: admin,
      })
    ).body;
    const clientToken = (
      await call(`${service.url}/admin/v1/applications/${application.application_id}/client-tokens`, {
        body: {},
        headers: admin,
      })
    ).body.client_token;
    const rules = (route: string, body: object) =>
      call(`${service.url}/rum/error-ingestion/${route}?app_key=${account.app_key}`, {
        body: { application_id: application.application_id, ...body },
      });
    const rule = { rule_name: 'scan', filters: [[{ key: 'error.error_type', oper: 'IN', vals: ['TypeError'] }]] };
    expect((await rules('rules/create', rule)).status).toBe(200);
    expect(
      (await call(`${service.url}/rum/error-ingestion/rules/list?app_key=${mark('wrong-key')}`, { body: {} })).status,
    ).toBe(401);
    expect(
      (
        await call(`${service.url}/rum/ingest/errors`, {
          body: { events: [{ error: { message: 'x' } }] },
          headers: { 'x-rum-client-token': clientToken },
        })
      ).status,
    ).toBe(200);
    await service.refuseWrites();
    expect((await rules('rules/create', { ...rule, rule_name: 'refused' })).status).toBeGreaterThanOrEqual(500);
    await service.killDatabase();
    expect((await rules('rules/list', {})).status).toBeGreaterThanOrEqual(400);
    await finish(service, [adminToken, account.app_key, clientToken]);
  }, 180_000);

  it('migration-worker', async () => {
    const adminToken = mark('admin');
    const service = (running = await startServiceFromSource('migration-worker', { ADMIN_TOKEN: adminToken }));
    const admin = { authorization: `Bearer ${adminToken}` };
    const workspace = (await call(`${service.url}/admin/v1/workspaces`, { body: { name: 'scan' }, headers: admin }))
      .body;
    const keys = { 'x-service-api-key': workspace.apiKey, 'x-service-auth-token': workspace.authToken };
    for (const organizationId of ['org-a', 'org-b']) {
      expect(
        (
          await call(`${service.url}/admin/v1/workspaces/${workspace.workspaceId}/organizations`, {
            body: { organizationId },
            headers: admin,
          })
        ).status,
      ).toBe(201);
    }
    expect(
      (
        await call(`${service.url}/admin/v1/workspaces/${workspace.workspaceId}/organizations`, {
          body: { organizationId: 'org-a' },
          headers: admin,
        })
      ).status,
    ).toBe(409);
    const documents = [
      {
        id: 'd1',
        title: 'Document',
        content: 'content',
        records: [{ id: 'r1', kind: 'comment', body: { text: 'note' } }],
      },
    ];
    expect(
      (
        await call(`${service.url}/admin/v1/workspaces/${workspace.workspaceId}/organizations/org-a/documents`, {
          body: { documents },
          headers: admin,
        })
      ).status,
    ).toBeLessThan(300);
    const migrate = { data: { organizationId: 'org-a', targetOrganizationId: 'org-b', documentIds: ['d1'] } };
    expect(
      (
        await call(`${service.url}/v2/organizations/documents/migrate`, {
          body: migrate,
          headers: { ...keys, 'x-service-auth-token': mark('wrong') },
        })
      ).status,
    ).toBe(401);
    await service.refuseWrites();
    expect(
      (await call(`${service.url}/v2/organizations/documents/migrate`, { body: migrate, headers: keys })).status,
    ).toBeGreaterThanOrEqual(500);
    await service.killDatabase();
    expect(
      (await call(`${service.url}/v2/organizations/documents/migrate`, { body: migrate, headers: keys })).status,
    ).toBeGreaterThanOrEqual(500);
    await finish(service, [adminToken, workspace.apiKey, workspace.authToken]);
  }, 180_000);
});
