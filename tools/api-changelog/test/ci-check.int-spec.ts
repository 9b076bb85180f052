import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCiCheck } from '../src/ci-check';
import { serializeOpenApi } from '../src/export-openapi';
import { Doc, document, int, obj, ok, query } from './openapi-fixtures';

/** A throw-away git repository shaped like the workspace (apps/<app>/openapi.json), on real git. */
function repo() {
  const root = mkdtempSync(path.join(tmpdir(), 'openapi-check-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: root,
      encoding: 'utf8',
    });
  git('init', '-q', '-b', 'main');
  const write = (app: string, doc: Doc) => {
    mkdirSync(path.join(root, 'apps', app), { recursive: true });
    writeFileSync(path.join(root, 'apps', app, 'openapi.json'), serializeOpenApi(doc));
  };
  const commit = (message: string) => {
    git('add', '-A');
    git('commit', '-q', '-m', message);
  };
  return { root, git, write, commit, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const v1 = document({
  '/rum/error-ingestion/rules/list': {
    post: {
      parameters: [query('app_key', { type: 'string' }, true)],
      responses: { '200': ok(obj({ total: int('int64'), has_next_page: { type: 'boolean' } })) },
    },
  },
});
const v2Compatible = document({
  '/rum/error-ingestion/rules/list': {
    post: {
      parameters: [query('app_key', { type: 'string' }, true), query('p', int('int64'))],
      responses: { '200': ok(obj({ total: int('int64'), has_next_page: { type: 'boolean' } })) },
    },
  },
});
const v2Breaking = document({
  '/rum/error-ingestion/rules/list': {
    post: {
      parameters: [query('app_key', { type: 'string' }, true)],
      responses: { '200': ok(obj({ total: int('int64') })) },
    },
  },
});

async function check(root: string, apps: string[], exported?: Record<string, Doc>, baseRef?: string) {
  let output = '';
  const passed = await runCiCheck({
    root,
    apps,
    // By default the "fresh export" is what is committed; a test passes another document to make it stale.
    exportApp: async (app) =>
      exported?.[app]
        ? serializeOpenApi(exported[app])
        : readFileSync(path.join(root, 'apps', app, 'openapi.json'), 'utf8'),
    baseRef,
    log: (text) => (output += text),
  });
  return { passed, output };
}

describe('openapi:check', () => {
  let r: ReturnType<typeof repo>;
  beforeEach(() => {
    r = repo();
    r.write('rum-ingestion', v1);
    r.commit('rum contract');
    r.git('checkout', '-q', '-b', 'feature');
  });
  afterEach(() => r.cleanup());

  it('passes when the contract is fresh and unchanged since main', async () => {
    r.git('commit', '-q', '--allow-empty', '-m', 'docs');
    const { passed, output } = await check(r.root, ['rum-ingestion']);
    expect(passed).toBe(true);
    expect(output).toContain('ok   apps/rum-ingestion/openapi.json is up to date; changes since');
    expect(output).toContain('No breaking or potentially breaking changes.');
  });

  it('fails when the committed contract is stale and shows what differs', async () => {
    const { passed, output } = await check(r.root, ['rum-ingestion'], { 'rum-ingestion': v2Breaking });
    expect(passed).toBe(false);
    expect(output).toContain(
      'FAIL apps/rum-ingestion/openapi.json is stale: run `npm run openapi:export` and commit it',
    );
    expect(output).toContain(
      '- `POST /rum/error-ingestion/rules/list`: optional response property `has_next_page` removed for status 200',
    );
  });

  it('fails, naming the app, when its export fails, and still checks the others', async () => {
    let output = '';
    const passed = await runCiCheck({
      root: r.root,
      apps: ['community-api', 'rum-ingestion'],
      exportApp: async (app) => {
        if (app === 'community-api')
          throw Object.assign(new Error('exit 1'), { stderr: 'Invalid environment: SECRET missing' });
        return readFileSync(path.join(r.root, 'apps', app, 'openapi.json'), 'utf8');
      },
      log: (text) => (output += text),
    });
    expect(passed).toBe(false);
    expect(output).toContain(
      'FAIL apps/community-api/openapi.json: the export failed (`nx run community-api:openapi`):\nInvalid environment: SECRET missing',
    );
    expect(output).toContain('apps/rum-ingestion/openapi.json is up to date');
  });

  it('fails when an app has no committed contract', async () => {
    const { passed, output } = await check(r.root, ['migration-worker'], { 'migration-worker': v1 });
    expect(passed).toBe(false);
    expect(output).toContain('FAIL apps/migration-worker/openapi.json is missing');
  });

  it('passes a potentially breaking change and prints the change log against main', async () => {
    r.write('rum-ingestion', v2Compatible);
    r.commit('rules/list: page parameter');
    const { passed, output } = await check(r.root, ['rum-ingestion']);
    expect(passed).toBe(true);
    expect(output).toContain('- `POST /rum/error-ingestion/rules/list`: optional query parameter `p` added');
  });

  it('fails a breaking change without the marker', async () => {
    r.write('rum-ingestion', v2Breaking);
    r.commit('rules/list: drop has_next_page');
    const { passed, output } = await check(r.root, ['rum-ingestion']);
    expect(passed).toBe(false);
    expect(output).toContain('FAIL apps/rum-ingestion/openapi.json is up to date; changes since');
    expect(output).toContain('## Breaking changes (1)');
    expect(output).toContain(
      '1 breaking change(s): make them compatible, or say you mean them with [breaking-api] (or [breaking-api:rum-ingestion]) in a commit message',
    );
  });

  it.each([
    ['[breaking-api]', true],
    ['[breaking-api:rum-ingestion]', true],
    ['[breaking-api:community-api]', false],
  ])('a commit since main marked %s passes: %s', async (marker, expected) => {
    r.write('rum-ingestion', v2Breaking);
    r.commit(`rules/list: drop has_next_page\n\n${marker}`);
    r.git('commit', '-q', '--allow-empty', '-m', 'later commit');
    const { passed, output } = await check(r.root, ['rum-ingestion']);
    expect(passed).toBe(expected);
    if (expected) expect(output).toContain('1 breaking change(s) accepted by a [breaking-api] commit marker');
  });

  it('treats a contract missing on main as new', async () => {
    r.write('community-api', v1);
    r.commit('community contract');
    const { passed, output } = await check(r.root, ['community-api']);
    expect(passed).toBe(true);
    expect(output).toContain('(new contract, nothing to compare on the base)');
  });

  it('on main compares the last commit with its parent', async () => {
    r.git('checkout', '-q', 'main');
    r.write('rum-ingestion', v2Breaking);
    r.commit('breaking on main');
    expect((await check(r.root, ['rum-ingestion'])).passed).toBe(false);
  });

  it('honours an explicit base ref, and checks only staleness when the base cannot be found', async () => {
    r.write('rum-ingestion', v2Breaking);
    r.commit('breaking');
    expect((await check(r.root, ['rum-ingestion'], undefined, 'HEAD')).passed).toBe(true);
    const missing = await check(r.root, ['rum-ingestion'], undefined, 'no-such-ref');
    expect(missing.passed).toBe(true);
    expect(missing.output).toContain('warning: no base commit found (no-such-ref); only staleness is checked');
  });
});
