/** Jest runs the TypeScript sources through ts-jest (transpile only: `npm run typecheck` checks types).
 * --experimental-vm-modules (set in the npm script) lets CommonJS code `import()` the ESM-only packages
 * (libxml2-wasm uses top-level await). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 60000,
  maxWorkers: 2,
};
