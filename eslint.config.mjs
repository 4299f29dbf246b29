// Flat config: typescript-eslint recommended rules plus the house rules that protect scope.
// The restricted-syntax and restricted-import lists are built once in eslint.one-door.mjs and
// applied once per file group below (a later setting of the same rule would replace, not add).
import tseslint from 'typescript-eslint';

import { BASE_SYNTAX, DOOR_EXEMPTIONS, DOOR_SYNTAX, PROBE_EXEMPTIONS, restrictedImports } from './eslint.one-door.mjs';

const exempt = DOOR_EXEMPTIONS.map((e) => e.files);
const probes = PROBE_EXEMPTIONS.map((e) => e.files);

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
    },
  },
  // Group 1: every file outside src/ (tests, bench, scripts) and the two exempt folders.
  { rules: { 'no-restricted-syntax': ['error', ...BASE_SYNTAX] } },
  // Group 2: src/ outside the exemptions: the tenant rules (each exemption and its reason: eslint.one-door.mjs).
  {
    files: ['src/**/*.ts'],
    ignores: exempt,
    rules: { 'no-restricted-syntax': ['error', ...BASE_SYNTAX, ...DOOR_SYNTAX] },
  },
  // Imports: outside src/database no TypeORM handle (but the probes); outside the door no door internals.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/database/**', ...probes],
    rules: { 'no-restricted-imports': restrictedImports({ typeorm: true }) },
  },
  {
    files: ['src/database/**/*.ts', ...probes],
    ignores: ['src/database/access/**'],
    rules: { 'no-restricted-imports': restrictedImports({ typeorm: false }) },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
