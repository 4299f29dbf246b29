/**
 * The framework integrations (npm run test:integrations): integrations/langchain and
 * integrations/ai-sdk against the real service listening on loopback (the e2e tier's harness:
 * a database of their own per file, every response checked against /docs-json), driven by the
 * frameworks' own fake models. Not part of `npm test`, like the fault and instance suites;
 * .ci/run runs it on the embedded database. `atrium/client`, which the integrations import as
 * their users would, is this repository's src/client.
 */
const base = require('./jest.config.js');

const e2e = base.projects.find((project) => project.displayName === 'e2e');

/** @type {import('jest').Config} */
module.exports = {
  ...e2e,
  displayName: 'integrations',
  roots: ['<rootDir>/integrations'],
  testMatch: ['<rootDir>/integrations/*/test/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  moduleNameMapper: { '^atrium/client$': '<rootDir>/src/client/index.ts' },
  testTimeout: 60000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
