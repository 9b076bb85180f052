import { createEnvValidator, InvalidEnvironmentError } from '@acme/platform-config';
import { ManagementEnv } from './env';

const validate = createEnvValidator(ManagementEnv);
const production = {
  NODE_ENV: 'production',
  MANAGEMENT_CLIENT_SECRET_KEY: 'a-production-client-secret-key-0123',
  MANAGEMENT_BOOTSTRAP_CLIENT_ID: 'bootstrap',
};

function problemsOf(source: Record<string, string>): string[] {
  try {
    validate(source);
    return [];
  } catch (error) {
    return (error as InvalidEnvironmentError).problems ?? [String(error)];
  }
}

describe('MANAGEMENT_BOOTSTRAP_CLIENT_SECRET', () => {
  const secret31 = 's'.repeat(31);

  it('needs at least 32 characters with NODE_ENV=production, and says so by name', () => {
    const problems = problemsOf({ ...production, MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: secret31 });
    const problem = problems.find((line) => line.startsWith('MANAGEMENT_BOOTSTRAP_CLIENT_SECRET'));
    expect(problem).toContain('must be at least 32 characters when NODE_ENV=production');
    expect(problemsOf({ ...production, MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: `${secret31}s` })).toEqual([]);
  });

  it('keeps the 16-character floor outside production', () => {
    expect(problemsOf({ MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: 's'.repeat(16) })).toEqual([]);
    expect(problemsOf({ MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: 's'.repeat(15) })).toHaveLength(1);
  });
});
