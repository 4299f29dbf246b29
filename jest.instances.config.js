/**
 * `npm run test:instances`: the multi-instance test (test/instances), which starts real Atrium
 * processes and needs PostgreSQL. The e2e project of jest.config.js (same transform, same
 * template database), narrowed to that folder, one file at a time.
 */
const base = require('./jest.config');

const e2e = base.projects.find((project) => project.displayName === 'e2e');

/** @type {import('jest').Config} */
module.exports = {
  ...e2e,
  displayName: 'instances',
  roots: ['<rootDir>/test/instances'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: base.testTimeout,
  maxWorkers: 1,
};
