/**
 * The ingest matcher with 1,000 rules: the compiled rule set (libs/rum compileRuleSet) against the naive
 * interpreter of the same rules (interpretRuleSet: walks every rule, group and condition and splits each key
 * for every event), in one run, on one core.
 *
 *   node -r @swc-node/register tools/bench/rum/bench-matcher.ts [--rules 1000] [--seconds 3]
 */
import { Condition, compileRuleSet, MatchableRule } from '@acme/rum';
import { interpretRuleSet } from '@acme/rum/testing';
import { numberArg } from '../support/processes';
import { machineLine } from '../support/report';

const RULES = numberArg('rules', 1000);
const SECONDS = numberArg('seconds', 3);

// Deterministic pseudo-random numbers, so every run measures the same rules and events.
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

const services = Array.from({ length: 50 }, (_, i) => `svc-${i}`);
const envs = ['prod', 'staging', 'dev', 'canary'];
const errorTypes = Array.from({ length: 3000 }, (_, i) => `Error${i}`);
const phrases = Array.from({ length: 400 }, (_, i) => `phrase${i} failed`);
const paths = Array.from({ length: 300 }, (_, i) => `/page${i}/`);
const words = ['request', 'timeout', 'undefined', 'null', 'cannot', 'read', 'property', 'of', 'network', 'error'];

/** A mix shaped like real discard rules: mostly IN on the error type or service, some CONTAINS, some exclusions. */
function makeRule(i: number): MatchableRule {
  const kind = i % 20;
  let filters: Condition[][];
  if (kind < 12) filters = [[{ key: 'error.error_type', oper: 'IN', vals: [pick(errorTypes), pick(errorTypes)] }]];
  else if (kind < 16)
    filters = [
      [
        { key: 'service', oper: 'IN', vals: [pick(services)] },
        { key: 'error.message', oper: 'CONTAINS', vals: [pick(phrases)] },
      ],
    ];
  else if (kind < 18) filters = [[{ key: 'view.url', oper: 'CONTAINS', vals: [pick(paths)] }]];
  else if (kind < 19)
    filters = [
      [
        { key: 'env', oper: 'IN', vals: [pick(envs)] },
        { key: 'version', oper: 'NOT IN', vals: ['1.0.0', '1.1.0'] },
        { key: 'error.error_type', oper: 'IN', vals: [pick(errorTypes)] },
      ],
      [{ key: 'error.error_type', oper: 'IN', vals: [pick(errorTypes)] }],
    ];
  else
    filters = [
      [
        { key: 'error.message', oper: 'CONTAINS', vals: [pick(phrases)] },
        { key: 'env', oper: 'NOT IN', vals: ['prod'] },
      ],
    ];
  return { id: `rule-${i}`, status: i % 50 === 49 ? 'disabled' : 'enabled', filters };
}

function makeEvent() {
  const message = Array.from({ length: 8 }, () => pick(words)).join(' ') + (random() < 0.3 ? ` ${pick(phrases)}` : '');
  return {
    date: Date.now(),
    service: pick(services),
    env: pick(envs),
    version: pick(['1.0.0', '1.1.0', '2.0.0']),
    error: { error_type: pick(errorTypes), message, stack: `at ${pick(words)} (app.js:1:1)` },
    view: { url: `https://example.com${pick(paths)}index?x=${Math.floor(random() * 100)}` },
  };
}

const rules = Array.from({ length: RULES }, (_, i) => makeRule(i));
const events = Array.from({ length: 20000 }, makeEvent);

function measure(name: string, matchOne: (event: unknown) => boolean): { perSecond: number; matched: number } {
  // Warm-up lets the JIT settle before timing.
  for (let i = 0; i < 2000; i++) matchOne(events[i % events.length]);
  let done = 0;
  let matched = 0;
  const cpuStarted = process.cpuUsage();
  const started = process.hrtime.bigint();
  const budget = BigInt(SECONDS * 1e9);
  while (process.hrtime.bigint() - started < budget) {
    for (let i = 0; i < 1000; i++) if (matchOne(events[(done + i) % events.length])) matched++;
    done += 1000;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  // Per CPU-second is "per core" even when other processes share the machine; wall-clock is shown beside it.
  const perSecond = done / cpuSeconds;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);
  console.log(
    `${name.padEnd(12)} ${fmt(perSecond)} events/CPU-s  ${fmt(done / seconds)} events/wall-s  (${((matched / done) * 100).toFixed(1)}% matched)`,
  );
  return { perSecond, matched: matched / done };
}

const compileStarted = process.hrtime.bigint();
const compiled = compileRuleSet(rules);
const compileMs = Number(process.hrtime.bigint() - compileStarted) / 1e6;

// Both must agree before their speeds mean anything.
for (const event of events.slice(0, 5000)) {
  const index = compiled.match(event);
  if ((index === -1 ? undefined : compiled.ruleIds[index]) !== interpretRuleSet(rules, event))
    throw new Error('compiled matcher disagrees with the interpreter');
}

console.log(machineLine());
console.log(
  `${RULES} rules (${rules.filter((r) => r.status === 'enabled').length} enabled), ${events.length} distinct events, compile ${compileMs.toFixed(1)} ms, node ${process.version}`,
);
const naive = measure('naive', (event) => interpretRuleSet(rules, event) !== undefined);
const fast = measure('compiled', (event) => compiled.match(event) !== -1);
console.log(
  `ratio        ${(fast.perSecond / naive.perSecond).toFixed(1)}x  (targets: >= 1,000,000 events/s per core and >= 10x naive)`,
);
