import { GATEWAY_ACTOR } from '@libs/grpc';
import { signedIn } from '../identity/access-guard';
import { route, type Route } from '../platform/routing/operation';
import type { CallerKey } from '../platform/routing/access';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './mail-preferences-operations';

/** /api/v1/auth/me/notifications and the one-click unsubscribe link: answered by the notifications service. */
export function mailPreferenceRoutes(upstreams: Upstreams): Route[] {
  const notifications = upstreams.notifications;
  // A session has no key: the account signed in is the actor either way.
  const asAccount = (account: ReturnType<typeof signedIn>) => ({ userId: account.userId, role: account.role });
  return [
    route(op.getMailPreferences, async (_input, { res, caller, upstream }) => {
      const { preferences } = await notifications.call((c) => c.getMailPreferences, {}, { ...upstream, key: asAccount(signedIn(caller.account)) });
      res.json(preferences);
    }),
    route(op.updateMailPreferences, async ({ body }, { res, caller, upstream }) => {
      const { preferences } = await notifications.call((c) => c.updateMailPreferences, body, { ...upstream, key: asAccount(signedIn(caller.account)) });
      res.json(preferences);
    }),
    route(op.unsubscribeMail, async ({ path }, { res, upstream }) => {
      // The link is the credential: the gateway asks for itself, and the service checks the token's signature.
      await notifications.call((c) => c.unsubscribe, { token: path.token }, { ...upstream, key: GATEWAY_ACTOR as CallerKey });
      res.status(204).end();
    }),
  ];
}
