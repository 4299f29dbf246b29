/**
 * `npm run test:browser`: the memory inspector end to end in headless Chromium (Debian's
 * `chromium`, installed by scripts/install-chromium.sh, driven by playwright-core), against
 * the real service on a loopback port, serving the pages `npm run build` made (dist/ui). The
 * e2e project of jest.config.js (same transform, same per-file databases), one file at a time.
 */
const base = require('./jest.config.js');

const e2e = base.projects.find((project) => project.displayName === 'e2e');

/** @type {import('jest').Config} */
module.exports = {
  ...e2e,
  displayName: 'browser',
  roots: ['<rootDir>/test/inspector'],
  testMatch: ['<rootDir>/test/inspector/**/*.browser.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 300000,
  maxWorkers: 1,
};
