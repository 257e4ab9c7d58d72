/** Jest runs the TypeScript sources through ts-jest (transpile only: `npm run typecheck` checks types).
 * --experimental-vm-modules (set in the npm script) lets CommonJS code `import()` the ESM-only packages
 * (libxml2-wasm uses top-level await).
 * Three projects: `unit` (test/unit, no database, seconds: `npm run test:unit`), `integration` (everything else,
 * on the embedded Postgres started once by the global setup) and `alone`: the files that compare the service's
 * latency under attack with its own latency a moment before, which a neighbouring test file on a 2-core machine
 * would skew either way. `npm test` runs `unit` and `integration` together, then `alone` by itself. */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] };
const ALONE = ['<rootDir>/test/integration/tenant-flood.test.ts'];
const database = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['<rootDir>/test/support/openapi-recorder.ts'],
};

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/unit'],
      testMatch: ['**/*.test.ts'],
      transform,
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      roots: ['<rootDir>/test', '<rootDir>/src'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/unit/', ...ALONE],
      transform,
      ...database,
    },
    {
      displayName: 'alone',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ALONE,
      transform,
      ...database,
    },
  ],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 60000,
  maxWorkers: 2,
};
