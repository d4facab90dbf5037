import { z } from 'zod';
import { financeApi } from '@libs/contracts';

/** A calendar feed as its owner sees it: never its token, which no one can see again after the 201. */
export const calendarFeed = z
  .object({
    id: financeApi.uuid,
    resourceId: financeApi.uuid.optional().meta({ description: 'Only this resource’s appointments; absent: every appointment you may read.' }),
    createdAt: z.string(),
  })
  .meta({ id: 'CalendarFeed' });

export const calendarFeedWithUrl = calendarFeed
  .extend({
    url: z.string().meta({ description: 'The secret subscription URL: shown in full only in this answer; anyone holding it reads the feed.' }),
  })
  .meta({ id: 'CalendarFeedWithUrl' });

export const newCalendarFeed = z
  .object({
    resourceId: financeApi.uuid.optional().meta({ description: 'Staff only: a feed of one resource (an admin: any; a clinician: one they staff).' }),
  })
  .strict();
