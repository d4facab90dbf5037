import { sqlStateOf } from '@libs/db';

/** Which exclusion constraint of the allocation table a failed write broke (SQLSTATE 23P01), if it broke one. */
export function exclusionBroken(error: unknown): 'resource' | 'student' | undefined {
  if (sqlStateOf(error) !== '23P01') return undefined;
  const layers = [error, (error as { parent?: unknown }).parent, (error as { original?: unknown }).original];
  const constraint = layers.map((layer) => (layer as { constraint?: unknown } | undefined)?.constraint).find((name) => typeof name === 'string');
  return constraint === 'allocation_student_free' ? 'student' : 'resource';
}
