/** jest in native ESM mode (node --experimental-vm-modules) with the SWC TypeScript transform. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
  // Brings up Redis / PostgreSQL for the storage tests when none answers (test/services/).
  globalSetup: '<rootDir>/test/services/global-setup.ts',
  globalTeardown: '<rootDir>/test/services/global-teardown.ts',
};
