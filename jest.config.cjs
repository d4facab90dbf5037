// `npm test` runs every project's tests in one Jest run, so CI gets one summary.
const { getJestProjectsAsync } = require('@nx/jest');

module.exports = async () => ({
  projects: await getJestProjectsAsync(),
  // Jest reads testTimeout from the root config only when it runs several projects, so a
  // project's own setting (e2e: 60 s) is ignored here; this is the ceiling for all of them.
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/tools/testing/summary-reporter.cjs'],
});
