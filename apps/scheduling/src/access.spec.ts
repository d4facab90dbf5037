import type { Sequelize } from 'sequelize';
import { GrpcStatus } from '@libs/grpc';
import { scopeOf } from './access';

/** Only a staffed reach reads the database (the resources an actor staffs); these cases must not reach it. */
const noDatabase = {} as Sequelize;

describe('scheduling scopes', () => {
  it('give an admin everything and a student their own', async () => {
    expect(await scopeOf(noDatabase, { userId: 'a1', role: 'admin' })).toEqual({ kind: 'all' });
    expect(await scopeOf(noDatabase, { userId: 's1', role: 'student' })).toEqual({ kind: 'own', studentId: 's1' });
  });

  it.each(['bursar', 'reader', 'a-role-added-later'])('refuse a role the reach table does not list (%s): it is no staff by default', async (role) => {
    await expect(scopeOf(noDatabase, { userId: 'u1', role })).rejects.toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
  });
});
