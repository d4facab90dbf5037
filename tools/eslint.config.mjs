import baseConfig from '../eslint.config.mjs';

const [level, boundaries] = baseConfig.find((config) => config.rules?.['@nx/enforce-module-boundaries']).rules[
  '@nx/enforce-module-boundaries'
];

export default [
  ...baseConfig,
  { ignores: ['**/*.cjs'] },
  {
    // The Kubernetes manifests' test checks every variable a manifest sets against that service's configuration
    // schema, the one place those variables are defined: it may import apps/<service>/src/config, and nothing
    // else of an app.
    files: ['**/kubernetes/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [level, { ...boundaries, allow: ['^\\.\\./\\.\\./apps/[\\w-]+/src/config$'] }],
    },
  },
];
