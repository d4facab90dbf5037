// `npm test` runs every project's tests in one Jest run, so CI gets one summary.
const { getJestProjectsAsync } = require('@nx/jest');

module.exports = async () => ({
  projects: await getJestProjectsAsync(),
  reporters: ['default', '<rootDir>/tools/testing/summary-reporter.cjs'],
});
