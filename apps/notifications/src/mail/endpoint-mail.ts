import type { Sequelize, Transaction } from 'sequelize';

/**
 * Tells an endpoint's owner that the service disabled it, in the transaction that disables it: once per disabling
 * (the endpoint's version names it), and only to a verified address.
 */
export async function queueEndpointDisabledMail(sequelize: Sequelize, endpointId: string, reason: 'gone' | 'failing', transaction: Transaction): Promise<void> {
  await sequelize.query(
    `INSERT INTO mails (id, cause, recipient, template, category, to_address, params)
     SELECT gen_random_uuid(), 'endpoint-disabled:' || e.id || ':' || e.version, r.user_id, 'endpoint_disabled', 'webhooks', r.email,
            jsonb_build_object('endpointId', e.id, 'url', e.url, 'reason', $2::text)
       FROM endpoints e JOIN recipients r ON r.user_id = e.owner_id
      WHERE e.id = $1 AND r.email IS NOT NULL AND r.email_verified
     ON CONFLICT (cause, recipient, template) DO NOTHING`,
    { bind: [endpointId, reason], transaction },
  );
}
