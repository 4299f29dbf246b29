/**
 * Jest runs the TypeScript sources through swc (decorators + metadata on, CommonJS out).
 * @nestjs/* 12 ships ESM only, so swc must transform those packages too.
 *
 * Tiers, by file name, each runnable alone (`npm run test:unit|test:checks|test:integration|test:e2e`;
 * `npm test` runs them all):
 * - unit: `*.spec.ts` that are none of the below; no database, no server, seconds;
 * - checks: `*.check.spec.ts`, whole-tree static checks (the client compiles on its own, the
 *   one-door lint rules hold and fire); no database, but tens of seconds of compiling;
 * - integration: `*.int.spec.ts`, against one database (PostgreSQL with DATABASE_URL, else PGlite);
 * - e2e: `*.e2e.spec.ts`, the app over real HTTP;
 * - instances: test/instances, three Atrium processes on one PostgreSQL database
 *   (`npm run test:instances`, jest.instances.config.js; not part of `npm test`).
 * Only the database tiers run the global setup that builds a migrated template database;
 * each of their test files gets its own copy of it (test/support/test-database.ts), so files
 * run in parallel.
 */
const swcConfig = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', swcConfig],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs)/)'],
};

const withDatabase = {
  ...shared,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 60000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: ['\\.(int|e2e|check)\\.spec\\.ts$', '/node_modules/'],
    },
    { ...shared, displayName: 'checks', testMatch: ['**/*.check.spec.ts'] },
    { ...withDatabase, displayName: 'integration', testMatch: ['**/*.int.spec.ts'] },
    // test/instances starts real Atrium processes on one PostgreSQL database: `npm run test:instances`.
    {
      ...withDatabase,
      displayName: 'e2e',
      testMatch: ['**/*.e2e.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/instances/'],
    },
  ],
};
