// Shared Jest settings: SWC for speed, and tsconfig path aliases as module names.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias}$`,
    path.join(__dirname, target),
  ]),
);

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
    // temporal-polyfill (and its temporal-utils) and ical.js (the e2e tests' iCalendar parser) ship ES modules only,
    // which Jest cannot load: they are compiled to CommonJS like our code.
    '/node_modules/(temporal-(polyfill|utils)|ical\\.js)/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!temporal-(polyfill|utils)/|ical\\.js/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/*.spec.ts'],
};
