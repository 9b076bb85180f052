import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
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

  // The exported file must be what clients download from the running service, byte for byte once serialized.
  it.each(apps)('%s: the preview-mode export equals /docs/openapi.json of the running app', async (app) => {
    const contract = await loadAppContract(app);
    const exported = serializeOpenApi(await exportOpenApi(contract));
    const running = await startTestApp({ service: contract.service, module: contract.buildModule });
    try {
      const response = await fetch(`${running.url}/docs/openapi.json`);
      expect(response.status).toBe(200);
      expect(exported).toBe(serializeOpenApi(await response.json()));
    } finally {
      await running.close();
    }
  });
});
