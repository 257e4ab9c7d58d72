/** Jest runs the TypeScript sources through ts-jest (transpile only: `npm run typecheck` checks types).
 * --experimental-vm-modules (set in the npm script) lets CommonJS code `import()` the ESM-only packages
 * (libxml2-wasm uses top-level await).
 * Two projects: `unit` (test/unit, no database, seconds: `npm run test:unit`) and `integration` (everything else,
 * on the embedded Postgres started once by the global setup). `npm test` runs both. */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] };

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
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/unit/'],
      transform,
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFiles: ['<rootDir>/test/support/openapi-recorder.ts'],
    },
  ],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 60000,
  maxWorkers: 2,
};
