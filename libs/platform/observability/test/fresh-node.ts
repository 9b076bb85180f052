import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The workspace root, where a fresh Node resolves `./libs/...` and the installed packages. */
export const WORKSPACE_ROOT = join(__dirname, '../../../..');

/**
 * Runs `script` in a fresh Node (outside Jest's module registry, so the SDK's require hooks see every module load)
 * from the workspace root with only PATH and `env`; its stdout.
 */
export function inFreshNode(script: string, env: Record<string, string>): string {
  const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: WORKSPACE_ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}

/**
 * Script source to start an `inFreshNode` script with: an OTLP/HTTP JSON receiver inside the child (the blocking
 * `inFreshNode` cannot reach one in the Jest process). `bodies` holds each export received and `spansOf(bodies)`
 * their spans; `withReceiver(start)` listens, points OTEL_EXPORTER_OTLP_ENDPOINT at the receiver, then calls `start`.
 */
export const OTLP_RECEIVER_SCRIPT = `
  const bodies = [];
  const spansOf = (received) =>
    received.flatMap((body) => body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
  const receiver = require('node:http').createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const withReceiver = (start) =>
    receiver.listen(0, '127.0.0.1', () => {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:' + receiver.address().port;
      start();
    });
`;
