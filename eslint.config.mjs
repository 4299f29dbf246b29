// Flat config: typescript-eslint recommended rules plus the house rules that protect scope.
import tseslint from 'typescript-eslint';

import { oneDoor } from './eslint.one-door.mjs';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'artifacts/**',
      'data/**',
      '.cache/**',
      'jest.config.js',
      'jest.faults.config.js',
      'jest.instances.config.js',
      'jest.browser.config.js',
      'jest.integrations.config.js',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='only'][callee.object.name=/^(it|describe|test)$/]",
          message: 'Focused tests hide failures.',
        },
        {
          selector: "CallExpression[callee.property.name='skip'][callee.object.name=/^(it|describe|test)$/]",
          message: 'Skipped tests hide failures.',
        },
      ],
    },
  },
  {
    // Repositories must not replace or widen the visibility predicate added by database/visibility.ts.
    files: ['src/**/*.repository.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='orWhere']",
          message: 'orWhere on a scoped builder can widen visibility; use Brackets inside andWhere.',
        },
        {
          selector: "CallExpression[callee.property.name='where']",
          message: '.where() replaces the visibility predicate that MemoryAccess added; use andWhere.',
        },
      ],
    },
  },
  ...oneDoor,
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
