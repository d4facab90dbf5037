import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import baseConfig from '../../eslint.config.mjs';

const PLATFORM = resolve(dirname(fileURLToPath(import.meta.url)), 'src/platform');

/**
 * platform/ is the framework the areas build on (CONTRIBUTING, "Where things are"): a relative import that leaves
 * the folder is refused, whatever it names, so that a new area, or a new file beside main.ts, needs no edit here.
 * Libraries and packages are imported by name, and stay allowed.
 */
const platformImportsNothingAbove = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      outside:
        "platform/ imports nothing of the gateway outside it ('{{source}}'): declare the interface it needs in platform/, and let the composition root (app.ts, main.ts) pass the area or the configuration in.",
    },
  },
  create(context) {
    const check = (source) => {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const target = relative(PLATFORM, resolve(dirname(context.filename), source.value));
      if (target.startsWith('..') || isAbsolute(target)) context.report({ node: source, messageId: 'outside', data: { source: source.value } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.argument?.literal ?? node.argument),
    };
  },
};

export default [
  ...baseConfig,
  {
    files: ['src/platform/**/*.ts'],
    plugins: { gateway: { rules: { 'platform-imports-nothing-above': platformImportsNothingAbove } } },
    rules: { 'gateway/platform-imports-nothing-above': 'error' },
  },
];
