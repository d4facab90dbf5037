import { z } from 'zod';
import { parseRetrySchedule, RetryScheduleError } from '@libs/webhooks';

/** A retry schedule setting (`0s,5s,5m,...`): parsed at start-up, so a bad one stops the service naming what is wrong. */
export const retryScheduleField = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, context) => {
      try {
        return parseRetrySchedule(text);
      } catch (error) {
        if (!(error instanceof RetryScheduleError)) throw error;
        context.addIssue({ code: 'custom', message: error.message });
        return z.NEVER;
      }
    });
