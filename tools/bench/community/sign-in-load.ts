/**
 * Sign-in under load: the scrypt cost in-process, req/s at growing connection counts (where the machine
 * saturates), and whether hashing starves the event loop: another route's p99 alone vs while sign-ins saturate.
 */
import { DEFAULT_SCRYPT, hashPassword, verifyPassword } from '@acme/platform-auth';
import type { ChildProcess } from 'node:child_process';
import { Figures, jsonPosts, measure } from '../support/load';
import { markdownTable, median } from '../support/report';

export interface SignInSetup {
  api: string;
  app: ChildProcess;
  duration: number;
  rounds: number;
  levels: number[];
  /** The route measured beside the sign-ins (a fresh body and headers per request). */
  other: { label: string; url: string; body: () => string; headers: () => Record<string, string>; connections: number };
}

const CREDENTIALS = JSON.stringify({ email: 'signin@example.com', password: 'bench password 123' });

export async function signInFigures(setup: SignInSetup): Promise<string> {
  const stored = await hashPassword('bench password 123');
  const started = performance.now();
  for (let i = 0; i < 10; i += 1) await verifyPassword('bench password 123', stored);
  const perHashMs = (performance.now() - started) / 10;
  const url = `${setup.api}/auth/sign-in`;
  const signUp = await fetch(`${setup.api}/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: CREDENTIALS,
  });
  if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const signIns = (connections: number, duration = setup.duration) =>
    measure(
      `sign-in, ${connections} connections`,
      { url, connections, timeout: 60, method: 'POST', requests: jsonPosts(() => CREDENTIALS) },
      { duration, server: setup.app },
    );

  const levels: Figures[] = [];
  for (const connections of setup.levels) levels.push(await signIns(connections));

  // Interference: the other route alone, then while 8 connections of sign-ins keep every core busy (paired per round).
  const other = () =>
    measure(
      setup.other.label,
      {
        url: setup.other.url,
        connections: setup.other.connections,
        method: 'POST',
        requests: jsonPosts(setup.other.body, setup.other.headers),
      },
      { duration: setup.duration },
    );
  const alone: Figures[] = [];
  const beside: Figures[] = [];
  const loaded: Figures[] = [];
  for (let round = 0; round < setup.rounds; round += 1) {
    alone.push(await other());
    const [withSignIns, signInRun] = await Promise.all([other(), signIns(8, setup.duration + 1)]);
    beside.push(withSignIns);
    loaded.push(signInRun);
  }
  const p99Ratios = alone.map((a, i) => beside[i].p99 / a.p99);

  const { N, r, p } = DEFAULT_SCRYPT;
  let out = `\nSign-in: scrypt N=${N}, r=${r}, p=${p} (${(128 * N * r) / 2 ** 20} MiB per hash): ${perHashMs.toFixed(1)} ms per verification in the bench process; ${setup.duration} s per level\n\n`;
  out += markdownTable(
    ['connections', 'sign-ins/s', 'p50 ms', 'p99 ms', 'server CPU ms/sign-in', 'non-2xx/errors'],
    levels.map((f, i) => [
      setup.levels[i],
      f.rps.toFixed(1),
      f.p50,
      f.p99,
      (f.cpuMsPerRequest ?? NaN).toFixed(0),
      f.errors,
    ]),
  );
  out += `\n${setup.other.label}, ${setup.other.connections} connections, alone vs beside 8 connections of sign-ins (${setup.rounds} paired rounds of ${setup.duration} s):\n\n`;
  out += markdownTable(
    [
      'round',
      'alone req/s',
      'alone p99 ms',
      'beside sign-ins req/s',
      'beside p99 ms',
      'sign-ins/s meanwhile',
      'p99 ratio',
    ],
    alone.map((a, i) => [
      i + 1,
      a.rps.toFixed(0),
      a.p99,
      beside[i].rps.toFixed(0),
      beside[i].p99,
      loaded[i].rps.toFixed(1),
      p99Ratios[i].toFixed(2),
    ]),
  );
  out += `\np99 beside sign-ins / p99 alone, median of paired rounds: ${median(p99Ratios).toFixed(2)} (target <= 2; errors ${[...alone, ...beside].reduce((s, f) => s + f.errors, 0)})\n`;
  return out;
}
