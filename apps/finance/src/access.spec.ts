import type { Sequelize } from 'sequelize';
import { GrpcStatus } from '@libs/grpc';
import { scopeOf } from './access';

/** Only a student's reach reads the database (their student row); these cases must not reach it. */
const noDatabase = {} as Sequelize;

describe('finance scopes', () => {
  it.each(['bursar', 'admin'])('give a %s every student', async (role) => {
    expect(await scopeOf(noDatabase, { userId: 'u1', role })).toEqual({ kind: 'all' });
  });

  it.each(['clinician', 'reader', 'a-role-added-later'])('refuse a role the reach table does not list (%s): it sees nothing by default', async (role) => {
    await expect(scopeOf(noDatabase, { userId: 'u1', role })).rejects.toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
  });
});
