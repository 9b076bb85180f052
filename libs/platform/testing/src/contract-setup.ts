// Jest setup of every project (jest.preset.cjs): a test fails when an app it started answered outside its
// published OpenAPI document (libs/platform/testing contract-check).
import { appendFileSync } from 'node:fs';
import { takeContractViolations } from './lib/contract-check';

afterEach(() => {
  const violations = takeContractViolations();
  if (violations.length === 0) return;
  // CONTRACT_REPORT=<file> lists them instead, to survey a whole run.
  const report = process.env['CONTRACT_REPORT'];
  if (report) appendFileSync(report, `${expect.getState().testPath}\n  ${violations.join('\n  ')}\n`);
  else throw new Error(`answers outside the published contract:\n${violations.join('\n')}`);
});
