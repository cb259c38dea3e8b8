/**
 * Five projects: unit (pure, beside the code), replay (recorded workflow histories against the workflow code,
 * offline), integration (API + PostgreSQL + Temporal), e2e (Chromium), deploy (the Helm chart checked by helm
 * and kubeconform, installed from the Go module proxy when missing).
 */
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const common = {
  transform,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  // openid-client and its jose/oauth4webapi ship ES modules only: compiled to CommonJS like our code.
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose)/)'],
  // The web app imports domain/ through the `@domain` alias of its Vite and TypeScript configs.
  moduleNameMapper: { '^@domain$': '<rootDir>/domain/index.ts', '^@domain/(.*)$': '<rootDir>/domain/$1' },
};

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/{domain,server,api,db,workflows,activities,scripts}/**/*.test.ts',
        '<rootDir>/web/src/**/*.test.ts',
      ],
    },
    {
      ...common,
      displayName: 'replay',
      testMatch: ['<rootDir>/tests/replay/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/tests/integration/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'deploy',
      testMatch: ['<rootDir>/tests/deploy/**/*.test.ts'],
    },
  ],
  testTimeout: 60000,
};
