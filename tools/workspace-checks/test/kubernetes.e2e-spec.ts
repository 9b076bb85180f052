import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { BaseEnv, declaredVariables, developmentDefaults } from '@acme/platform-config';
import { createTestDatabase, TestDatabase, testRedisUrl } from '@acme/platform-test-infra';
import { ensureBuilt, freePort, ROOT, startService, waitHealthy } from './support/built-service';

/**
 * The Kubernetes contract (deploy/kubernetes), read as the compose contract reads docker-compose.yml: every variable
 * a container gets is one its app knows and every required one is given; probes hit what the service serves; the
 * image's CMD is what runs; and each Deployment, with exactly its manifest's environment (addresses made local),
 * becomes ready after its migration Job ran.
 */
const SERVICES: { name: string; port: number }[] = JSON.parse(readFileSync(join(ROOT, 'tools/services.json'), 'utf8'));
const BASE = join(ROOT, 'deploy/kubernetes/base');
const SECRET_MOUNT = '/var/run/secrets/acme';

type EnvVar = { name: string; value?: string; valueFrom?: { configMapKeyRef?: { name: string; key: string } } };
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: unknown[];
  ports?: { name: string; containerPort: number }[];
  livenessProbe?: { httpGet?: { path: string; port: string } };
  readinessProbe?: { httpGet?: { path: string; port: string } };
  startupProbe?: { httpGet?: { path: string; port: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  volumes?: { name: string; secret?: { secretName: string } }[];
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  data?: Record<string, string>;
}

function loadBase(): K8sObject[] {
  const kustomization = parseAllDocuments(readFileSync(join(BASE, 'kustomization.yaml'), 'utf8'))[0].toJS();
  return (kustomization.resources as string[]).flatMap((file) =>
    parseAllDocuments(readFileSync(join(BASE, file), 'utf8')).map((doc) => doc.toJS() as K8sObject),
  );
}

/** The Dockerfile's runtime WORKDIR, USER and CMD (exec form). */
function dockerfile() {
  const text = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
  const runtime = text.slice(text.lastIndexOf('\nFROM '));
  const cmd = /^CMD (\[.*\])$/m.exec(runtime)?.[1];
  return {
    workdir: /^WORKDIR (\S+)$/m.exec(runtime)?.[1],
    user: /^USER (\S+)$/m.exec(runtime)?.[1],
    entrypoint: /^ENTRYPOINT /m.test(runtime),
    cmd: cmd ? (JSON.parse(cmd) as string[]) : [],
    copiesApp: /^COPY --from=build \/repo\/dist\/apps\/\$\{APP\} \.\/$/m.test(runtime),
    nodeEnv: /^ENV NODE_ENV=(\S+)/m.exec(runtime)?.[1],
  };
}

async function envClassOf(app: string): Promise<typeof BaseEnv> {
  // Loaded by path from the app's name: each app keeps its env class in src/config/env.ts.
  const module = (await import(join(ROOT, 'apps', app, 'src/config/env'))) as Record<string, unknown>;
  const found = Object.values(module).find(
    (value) => typeof value === 'function' && value.prototype instanceof BaseEnv,
  ) as typeof BaseEnv | undefined;
  if (!found) throw new Error(`${app}: no BaseEnv class in src/config/env.ts`);
  return found;
}

const objects = loadBase();
const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
const config = byKind('ConfigMap').find((o) => o.metadata.name === 'acme-config')?.data ?? {};
const deployments = byKind('Deployment');
const jobs = byKind('Job');
const appOf = (object: K8sObject) => (object.spec.template.spec as PodSpec).containers[0].image.replace(/^acme\//, '');
const podOf = (object: K8sObject) => object.spec.template.spec as PodSpec;

describe('Kubernetes contract: deploy/kubernetes/base', () => {
  const image = dockerfile();

  it('has a Deployment for every service, migration-worker as an API and a worker Deployment', () => {
    expect(new Set(deployments.map(appOf))).toEqual(new Set(SERVICES.map((s) => s.name)));
    const roles = deployments
      .filter((d) => appOf(d) === 'migration-worker')
      .map((d) => podOf(d).containers[0].env?.find((e) => e.name === 'MIGRATION_ROLE')?.value)
      .sort();
    expect(roles).toEqual(['api', 'worker']);
  });

  it.each(deployments.map((d) => [d.metadata.name, d] as const))(
    '%s: non-root, read-only root, probes on what the service serves, its own Service, PDB and HPA',
    (name, deployment) => {
      const app = appOf(deployment);
      const pod = podOf(deployment);
      const [container] = pod.containers;
      const port = SERVICES.find((s) => s.name === app)!.port;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(image.user).toBe('node'); // uid 1000 in the node images
      expect(container.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
      });
      expect(container.resources?.requests?.memory).toBeDefined();
      expect(container.resources?.limits?.memory).toBeDefined();
      // The image's CMD runs (no ENTRYPOINT in the Dockerfile, none overridden here).
      expect(image.entrypoint).toBe(false);
      expect({ command: container.command, args: container.args }).toEqual({ command: undefined, args: undefined });
      expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.startupProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      // Drain and exit before the kubelet's SIGKILL.
      expect(pod.terminationGracePeriodSeconds! * 1000).toBeGreaterThan(Number(config['SHUTDOWN_TIMEOUT_MS']));
      expect(container.env?.find((e) => e.name === 'MIGRATIONS_RUN')?.value).toBe('false');
      const selects = (o: K8sObject) => o.spec.selector?.matchLabels?.['app.kubernetes.io/name'] === name;
      expect(byKind('PodDisruptionBudget').filter(selects)).toHaveLength(1);
      expect(byKind('HorizontalPodAutoscaler').filter((h) => h.spec.scaleTargetRef.name === name)).toHaveLength(1);
      const services = byKind('Service').filter((s) => s.spec.selector['app.kubernetes.io/name'] === name);
      if (deployment.metadata.labels?.['app.kubernetes.io/component'] === 'api')
        expect(services.map((s) => s.spec.ports[0].targetPort)).toEqual(['http']);
      else expect(services).toEqual([]);
    },
  );

  it.each(SERVICES.map((s) => s.name))('%s: a migration Job runs `node main.js migrate` in the image', (app) => {
    const job = jobs.filter((j) => appOf(j) === app);
    expect(job).toHaveLength(1);
    const [container] = podOf(job[0]).containers;
    // The CMD's program and script (node … main.js), with the `migrate` command, from the image's WORKDIR.
    expect(image.copiesApp).toBe(true);
    expect(image.workdir).toBe('/srv');
    expect(container.command).toEqual([image.cmd[0], image.cmd[image.cmd.length - 1], 'migrate']);
    expect(podOf(job[0]).securityContext).toMatchObject({ runAsNonRoot: true });
  });

  it.each([...deployments, ...jobs].map((o) => [`${o.kind} ${o.metadata.name}`, o] as const))(
    '%s: every variable is one its app knows, every required one is given, config and secrets by reference',
    async (_, object) => {
      const app = appOf(object);
      const Env = await envClassOf(app);
      const declared = declaredVariables(Env);
      const [container] = podOf(object).containers;
      expect(container.envFrom).toBeUndefined();
      const names = (container.env ?? []).map((e) => e.name);
      const unknown = names.filter((n) => !declared.has(n) && !(n.endsWith('_FILE') && declared.has(n.slice(0, -5))));
      expect(unknown).toEqual([]);
      const given = new Set(names.map((n) => (n.endsWith('_FILE') && !declared.has(n) ? n.slice(0, -5) : n)));
      const required = [...developmentDefaults(Env), 'DATABASE_URL', 'REDIS_URL', 'ADMIN_TOKEN'];
      expect(required.filter((n) => !given.has(n))).toEqual([]);
      for (const variable of container.env ?? []) {
        const ref = variable.valueFrom?.configMapKeyRef;
        if (ref)
          expect({ [variable.name]: [ref.name, config[ref.key] !== undefined] }).toEqual({
            [variable.name]: ['acme-config', true],
          });
        // A secret is never a literal: it is a file of the mounted Secret.
        if (variable.name.endsWith('_FILE') && !declared.has(variable.name))
          expect(variable.value).toMatch(new RegExp(`^${SECRET_MOUNT}/[a-z-]+$`));
      }
      expect(container.volumeMounts).toContainEqual(expect.objectContaining({ mountPath: SECRET_MOUNT }));
      expect(podOf(object).volumes).toContainEqual(
        expect.objectContaining({ secret: expect.objectContaining({ secretName: 'acme-secrets' }) }),
      );
    },
  );
});

describe('Kubernetes contract: each Deployment becomes ready on its manifest environment after its Job', () => {
  let database: TestDatabase;
  let dir: string;
  const secretValues: Record<string, string> = {
    'redis-password': '', // the test Redis has no password
    'admin-token': randomBytes(24).toString('base64url'),
    'management-bootstrap-client-secret': randomBytes(24).toString('base64url'),
    'management-client-secret-key': randomBytes(24).toString('base64url'),
    'community-auth-secret': randomBytes(32).toString('base64url'),
  };

  beforeAll(async () => {
    ensureBuilt(SERVICES.map((s) => s.name));
    database = await createTestDatabase('kubernetes');
    dir = mkdtempSync(join(tmpdir(), 'kubernetes-'));
    mkdirSync(join(dir, 'secrets'));
    mkdirSync(join(dir, 'files'));
    for (const [key, value] of Object.entries({ ...secretValues, 'database-url': database.url }))
      writeFileSync(join(dir, 'secrets', key), value);
  }, 600_000);
  afterAll(async () => {
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A container's environment as the kubelet would give it, plus the image's ENV; addresses made local. */
  function localEnv(container: Container, port: number, app: string): Record<string, string> {
    const env: Record<string, string> = { NODE_ENV: dockerfile().nodeEnv ?? '', PORT: String(port) };
    for (const variable of container.env ?? []) {
      const ref = variable.valueFrom?.configMapKeyRef;
      env[variable.name] = ref ? config[ref.key] : (variable.value ?? '');
      if (env[variable.name].startsWith(`${SECRET_MOUNT}/`))
        env[variable.name] = join(dir, 'secrets', env[variable.name].slice(SECRET_MOUNT.length + 1));
    }
    env['REDIS_URL'] = testRedisUrl();
    env['REDIS_PREFIX'] = `k8s-${app}-${randomBytes(3).toString('hex')}`;
    if (env['PUBLIC_URL']) env['PUBLIC_URL'] = `http://127.0.0.1:${port}`;
    if (env['STORAGE_DIR']) env['STORAGE_DIR'] = join(dir, 'files');
    return env;
  }

  it.each(deployments.map((d) => [d.metadata.name, d] as const))(
    '%s answers its probes 200',
    async (_, deployment) => {
      const app = appOf(deployment);
      const main = join(ROOT, 'dist/apps', app, 'main.js');
      const [job] = jobs.filter((j) => appOf(j) === app);
      const jobContainer = podOf(job).containers[0];
      const migrate = spawnSync(process.execPath, [main, ...jobContainer.command!.slice(2)], {
        env: { PATH: process.env['PATH'] ?? '', ...localEnv(jobContainer, await freePort(), app) },
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect({ status: migrate.status, stderr: migrate.stderr }).toEqual({ status: 0, stderr: '' });

      const [container] = podOf(deployment).containers;
      const port = await freePort();
      const running = startService(main, localEnv(container, port, app));
      try {
        await waitHealthy(running, port);
        for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe])
          expect((await fetch(`http://127.0.0.1:${port}${probe!.httpGet!.path}`)).status).toBe(200);
      } finally {
        await running.stop();
      }
    },
    180_000,
  );
});
