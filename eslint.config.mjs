import nx from '@nx/eslint-plugin';
import prettierRecommended from 'eslint-plugin-prettier/recommended';

// nestjs-pino's request store has no public export: libs/platform/observability wraps its deep path once.
const PINO_REQUEST_STORE = {
  name: 'nestjs-pino/storage',
  message: 'Use the one wrapper, libs/platform/observability/src/lib/pino-request-store.ts.',
};

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/.data', '**/tmp', '**/*.cjs', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:domain', 'type:schema', 'type:platform', 'type:testing'],
            },
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: ['type:domain', 'type:schema', 'type:platform', 'type:testing'],
            },
            // A service's schema lib names its PostgreSQL schema and tables; it depends on nothing.
            { sourceTag: 'type:schema', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:testing'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:platform', 'type:testing'] },
            {
              sourceTag: 'type:tool',
              onlyDependOnLibsWithTags: ['type:platform', 'type:domain', 'type:schema', 'type:tool', 'type:testing'],
            },
            { sourceTag: 'scope:management', onlyDependOnLibsWithTags: ['scope:management', 'scope:shared'] },
            { sourceTag: 'scope:community', onlyDependOnLibsWithTags: ['scope:community', 'scope:shared'] },
            { sourceTag: 'scope:rum', onlyDependOnLibsWithTags: ['scope:rum', 'scope:shared'] },
            { sourceTag: 'scope:migration', onlyDependOnLibsWithTags: ['scope:migration', 'scope:shared'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The testing lib may be imported only by tests.
    files: ['**/*.ts'],
    ignores: [
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.e2e-spec.ts',
      '**/test/**',
      'libs/*/src/testing/**',
      'libs/platform/testing/**',
      'libs/platform/test-infra/**',
      'tools/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@acme/platform-testing', message: 'Only tests may import the testing lib.' },
            { name: '@acme/platform-test-infra', message: 'Only tests may import the testing lib.' },
            PINO_REQUEST_STORE,
          ],
          patterns: [
            { group: ['@acme/*/testing'], message: "Only tests and benchmarks may import a lib's testing entry." },
          ],
        },
      ],
    },
  },
  {
    // DTOs count lengths in code points, as PostgreSQL does (docs/decisions.md#lengths-count-code-points), and check
    // uniqueness in one pass. Repeats the testing-lib paths: a later block's rule replaces an earlier one's.
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts'],
    ignores: [
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/env.ts',
      'libs/*/src/testing/**',
      'libs/platform/config/**',
      'libs/platform/testing/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@acme/platform-testing', message: 'Only tests may import the testing lib.' },
            { name: '@acme/platform-test-infra', message: 'Only tests may import the testing lib.' },
            PINO_REQUEST_STORE,
            {
              name: 'class-validator',
              importNames: ['Length', 'MaxLength', 'MinLength', 'ArrayUnique'],
              message:
                'Use @CodePointLength, @MaxCodePoints, @MinCodePoints or @UniqueItems from @acme/platform-errors (docs/decisions.md#lengths-count-code-points).',
            },
          ],
          patterns: [
            { group: ['@acme/*/testing'], message: "Only tests and benchmarks may import a lib's testing entry." },
          ],
        },
      ],
    },
  },
  // Formatting is Prettier's (.prettierrc.json); lint fails on any file it would rewrite.
  prettierRecommended,
];
