import type { Sequelize } from 'sequelize';
import { GATEWAY_ACTOR } from '@libs/grpc';
import type { Logger } from '@libs/logging';
import { startOutbox } from '@libs/outbox';
import type { GatewayConfig } from '../config';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { AccountMailRelay } from './account-mails';

/** Account mails handed over per pass: each is one call to notifications, made while the batch is claimed. */
const MAIL_BATCH = 20;

export interface IdentityRelays {
  /** Wakes both relays after a commit that gave them work. */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * What carries the identity area's changes out of its database: the outbox relay to `identity.events` (libs/outbox,
 * as finance and scheduling start theirs) and the account mail relay to notifications' QueueAccountMail, which the
 * gateway calls as itself (GATEWAY_ACTOR), never for a user.
 */
export async function startIdentityRelays(sequelize: Sequelize, config: GatewayConfig, upstreams: Upstreams, logger: Logger): Promise<IdentityRelays> {
  const outbox = await startOutbox(sequelize, 'identity', config, logger);
  const mails = new AccountMailRelay(
    sequelize,
    (request) =>
      upstreams.notifications.call((client) => client.queueAccountMail, request, {
        requestId: `account-mail-${request.mailId}`,
        actor: GATEWAY_ACTOR,
        // The gateway's own call: no key's concurrency place to take.
        enter: async () => () => undefined,
        // The relay is the retry: a repeat with the same mail id changes nothing.
        retryable: false,
        cache: 'skip',
      }),
    logger,
    { pollMs: config.ACCOUNT_MAIL_POLL_MS, batchSize: MAIL_BATCH },
  );
  mails.start();
  return {
    nudge: () => {
      outbox.nudge();
      mails.nudge();
    },
    stop: async () => {
      await mails.stop();
      await outbox.stop();
    },
  };
}
