import type { z } from 'zod';
import type { FieldProblem } from '@libs/safe-text';

/**
 * The field problems of a failed parse, named the same way wherever a schema
 * is checked (the gateway, or a service checking its input again): `at`
 * prefixes every name (`[3].` for an item of a bulk request).
 */
export function fieldErrorsOf(error: z.ZodError, at = ''): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
    const where = `${at}${path}`.replace(/\.$/, '');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: where ? `${where}.${key}` : key, message: 'is not a known field' }));
    }
    return [{ field: where || '(body)', message: issue.message }];
  });
}
