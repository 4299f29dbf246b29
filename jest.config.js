/**
 * Jest runs the TypeScript sources through swc (decorators + metadata on, CommonJS out).
 * @nestjs/* 12 ships ESM only, so swc must transform those packages too.
 * Each test file gets its own database (see test/support/global-setup.ts and test-database.ts),
 * so files run in parallel.
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

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', swcConfig],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs)/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
