/**
 * The fault suite (npm run test:faults): Atrium as a real child process under fuzzed input,
 * killed database connections, SIGTERM under keep-alive load and SIGKILL mid-burst. The same
 * transform and per-file databases as the e2e tier of jest.config.js. Files named
 * *.pg.faults.ts need a PostgreSQL server (they terminate its backends); *.embedded.faults.ts
 * kill the process that holds the embedded database; the rest run on both.
 */
const base = require('./jest.config.js');

const e2e = base.projects.find((project) => project.displayName === 'e2e');
const postgres = Boolean(process.env.DATABASE_URL);

/** @type {import('jest').Config} */
module.exports = {
  ...e2e,
  displayName: 'faults',
  roots: ['<rootDir>/test'],
  testMatch: ['<rootDir>/test/faults/**/*.faults.ts'],
  testPathIgnorePatterns: ['/node_modules/', postgres ? '\\.embedded\\.faults\\.ts$' : '\\.pg\\.faults\\.ts$'],
  testTimeout: 180000,
  maxWorkers: 1,
};
