// End-to-end tests start the real, built service processes (npm test builds first).
module.exports = {
  displayName: 'e2e',
  preset: '../../jest.preset.cjs',
  testTimeout: 60_000,
  setupFilesAfterEnv: ['<rootDir>/jest.setup.cjs'],
};
