import { z } from 'zod';
import { operation } from '../platform/routing/operation';
import { json, noContent, problem } from '../platform/routing/responses';

/**
 * Mail preferences (docs/NOTIFICATIONS.md, "Turning mail off"): kept by the notifications service, under the
 * identity area's paths. In a file of its own so the identity area's declarations stay apart.
 */

const tag = 'Mail preferences';
const PREFERENCES_PATH = '/api/v1/auth/me/notifications';

const preferences = z
  .object({
    finance: z.boolean().meta({ description: 'Proof of payment processed and resolved.' }),
    appointments: z.boolean().meta({ description: 'Appointment booked, moved and cancelled.' }),
    reminders: z.boolean().meta({ description: 'Appointment reminders.' }),
  })
  .meta({ description: 'true: the category is sent. Verification, password reset and webhook notices cannot be turned off.' });

export const getMailPreferences = operation({
  method: 'get',
  path: PREFERENCES_PATH,
  operationId: 'getMailPreferences',
  summary: 'Which categories of mail you receive',
  tag,
  access: { account: 'any' },
  request: {},
  responses: { '200': json('Your preferences.', preferences) },
});

export const updateMailPreferences = operation({
  method: 'patch',
  path: PREFERENCES_PATH,
  operationId: 'updateMailPreferences',
  summary: 'Turn categories of mail on or off',
  tag,
  access: { account: 'any' },
  request: { body: preferences.partial().strict() },
  responses: { '200': json('Your preferences after the change.', preferences) },
});

export const unsubscribeMail = operation({
  method: 'post',
  path: '/api/v1/notifications/unsubscribe/{token}',
  operationId: 'unsubscribeMail',
  summary: 'One-click unsubscribe (RFC 8058): turn off the category a mail link names',
  description: 'The link of a mail\'s `List-Unsubscribe` header; it needs no key. Repeating it changes nothing.',
  tag,
  access: { public: true },
  request: { path: z.object({ token: z.string().min(1).max(512).meta({ description: 'From the mail; signed by the service.' }) }) },
  bodyLimit: 'public',
  responses: { '204': noContent('The category is off.'), '404': problem('No such unsubscribe link.') },
});
