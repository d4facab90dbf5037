import type { Sequelize } from 'sequelize';
import type { financeV1 } from '@libs/contracts';
import { requirePermission, type CallContext } from '@libs/grpc';
import { canSee, scopeOf } from '../access';
import { notFound, requireUuid } from '@libs/validation';
import { STUDENTS } from './record-kinds';
import { findRecord } from './record-store';

/** A student reaches only their own student row (another's is a 404, like a missing one); staff reach any. */
export async function visibleStudent(sequelize: Sequelize, context: CallContext, rawId: string): Promise<financeV1.Student> {
  const actor = requirePermission(context, 'finance:read');
  const id = requireUuid(rawId);
  const scope = await scopeOf(sequelize, actor);
  const student = await findRecord(sequelize, STUDENTS, id);
  if (!student || !canSee(scope, student.id)) throw notFound('student');
  return student;
}
