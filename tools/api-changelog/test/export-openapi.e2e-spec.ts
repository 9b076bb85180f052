import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { publicOpenApiDocument } from '@acme/platform-http';
import { startTestApp } from '@acme/platform-testing';
import { exportOpenApi, loadAppContract, serializeOpenApi, WORKSPACE_ROOT } from '../src/export-openapi';

const apps = readdirSync(path.join(WORKSPACE_ROOT, 'apps')).filter((app) =>
  existsSync(path.join(WORKSPACE_ROOT, 'apps', app, 'src', 'app.module.ts')),
);

describe('openapi export', () => {
  it('finds the four services', () => {
    expect(apps).toEqual(
      expect.arrayContaining(['community-api', 'management-api', 'migration-worker', 'rum-ingestion']),
    );
  });

  // The exported file must be what operators download from the running service (the operator document), byte for
  // byte once serialized; anyone else gets the same without the operator routes (docs/security.md#operator-surface).
  it.each(apps)(
    '%s: the preview-mode export equals the served operator document; /docs/openapi.json is its public part',
    async (app) => {
      const contract = await loadAppContract(app);
      const exported = await exportOpenApi(contract);
      const adminToken = 'export-check-admin-token-0123456789';
      const running = await startTestApp({
        service: contract.service,
        module: contract.buildModule,
        env: { ADMIN_TOKEN: adminToken },
      });
      try {
        const operator = await fetch(`${running.url}/docs/admin/openapi.json`, {
          headers: { authorization: `Bearer ${adminToken}` },
        });
        expect(operator.status).toBe(200);
        expect(serializeOpenApi(exported)).toBe(serializeOpenApi(await operator.json()));
        const anyone = await fetch(`${running.url}/docs/openapi.json`);
        expect(anyone.status).toBe(200);
        expect(serializeOpenApi(publicOpenApiDocument(exported as never))).toBe(serializeOpenApi(await anyone.json()));
      } finally {
        await running.close();
      }
    },
  );
});
