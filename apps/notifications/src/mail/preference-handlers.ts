import { QueryTypes } from 'sequelize';
import { notificationsV1 } from '@libs/contracts';
import { GrpcStatus, requireGateway, requirePermission, RpcError, type CallContext } from '@libs/grpc';
import type { NotificationsDeps } from '../deps';
import { writeTransaction } from '../house';
import { SWITCHABLE_CATEGORIES, type SwitchableCategory } from './templates/catalogue';
import type { UnsubscribeTokens } from './unsubscribe-token';

/** Each category that can be turned off: on unless muted. */
const preferencesOf = (muted: readonly string[]): notificationsV1.MailPreferences =>
  Object.fromEntries(SWITCHABLE_CATEGORIES.map((category) => [category, !muted.includes(category)])) as unknown as notificationsV1.MailPreferences;

/** The muted list after a change: the categories turned off, less those turned on. */
const mutedAfter = (muted: readonly string[], change: Partial<Record<SwitchableCategory, boolean>>) =>
  SWITCHABLE_CATEGORIES.filter((category) => (change[category] === undefined ? muted.includes(category) : !change[category]));

export function preferenceHandlers(deps: NotificationsDeps & { unsubscribeTokens: UnsubscribeTokens }) {
  const { sequelize } = deps;
  const mutedOf = async (userId: string) =>
    (await sequelize.query<{ muted: string[] }>('SELECT muted FROM recipients WHERE user_id = $1', { bind: [userId], type: QueryTypes.SELECT }))[0]?.muted ?? [];

  return {
    async getMailPreferences(_request: notificationsV1.GetMailPreferencesRequest, context: CallContext): Promise<notificationsV1.GetMailPreferencesResponse> {
      const actor = requirePermission(context, 'mail:preferences');
      return { preferences: preferencesOf(await mutedOf(actor.userId)) };
    },

    /** Stored on the actor's recipient row, made here if identity events have not made it yet. */
    async updateMailPreferences(request: notificationsV1.UpdateMailPreferencesRequest, context: CallContext): Promise<notificationsV1.UpdateMailPreferencesResponse> {
      const actor = requirePermission(context, 'mail:preferences');
      return writeTransaction(deps, undefined, async (transaction) => {
        const [row] = await sequelize.query<{ muted: string[] }>(
          `INSERT INTO recipients (user_id, role) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET user_id = excluded.user_id
           RETURNING muted`,
          { bind: [actor.userId, actor.role], type: QueryTypes.SELECT, transaction },
        );
        const muted = mutedAfter(row?.muted ?? [], request);
        await sequelize.query('UPDATE recipients SET muted = $2 WHERE user_id = $1', { bind: [actor.userId, muted], transaction });
        return { preferences: preferencesOf(muted) };
      });
    },

    /** Turns the link's category off: repeating it changes nothing. */
    async unsubscribe(request: notificationsV1.UnsubscribeRequest, context: CallContext): Promise<notificationsV1.UnsubscribeResponse> {
      requireGateway(context);
      const named = request.token.length <= 512 ? deps.unsubscribeTokens.verify(request.token) : undefined;
      if (!named) throw new RpcError(GrpcStatus.NOT_FOUND, 'no such unsubscribe link');
      await writeTransaction(deps, undefined, (transaction) =>
        sequelize.query('UPDATE recipients SET muted = array_append(muted, $2) WHERE user_id = $1 AND NOT ($2 = ANY(muted))', {
          bind: [named.userId, named.category],
          transaction,
        }),
      );
      return { category: named.category };
    },
  };
}
