import baseConfig from '../../eslint.config.mjs';

/** The gateway's areas (and its composition root, which imports them all). */
const AREAS = ['identity', 'reference', 'finance', 'appointments', 'audit', 'scheduling'];

export default [
  ...baseConfig,
  {
    // platform/ is the framework the areas build on: it never imports one (CONTRIBUTING, "Where things are").
    files: ['src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...AREAS.map((area) => `**/${area}/*`), '**/app', '**/areas'],
              message: 'platform/ imports no area: define the interface it needs here, and let the composition root (app.ts) pass the area in.',
            },
          ],
        },
      ],
    },
  },
];
