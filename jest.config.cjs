// `npm test` runs every project's tests in one Jest run, so CI gets one summary.
const { getJestProjectsAsync } = require('@nx/jest');

module.exports = async () => ({
  projects: await getJestProjectsAsync(),
  reporters: ['default', '<rootDir>/tools/testing/summary-reporter.cjs'],
  // testTimeout is a global option: a project's own (e2e's 60 s) is ignored when all projects run together, and
  // hooks such as afterAll(system.shutdown) then fail at Jest's 5 s default on a busy machine.
  testTimeout: 60_000,
});
