import { z } from 'zod';
import { SCHEDULING_LIMITS, schedulingApi } from '@libs/contracts';
import { queryInteger } from '../platform/routing/query-fields';
import { problem } from '../platform/routing/responses';

/** What the scheduling area's declarations share (docs/SCHEDULING.md, "Endpoints"). */

export const tag = 'Scheduling';
export const browse = { key: 'scheduling:browse' } as const;
export const configure = { key: 'scheduling:configure' } as const;

export const byPremise = z.object({ premiseId: schedulingApi.premiseId.meta({ description: "The reference service's premise id." }) });

export const limit = queryInteger(SCHEDULING_LIMITS.page).meta({ description: 'Page size.' });

export const forbidden = { '403': problem('Your role may not do this.') };

/**
 * A query that needs at least one of two parameters, the first named when both are missing. The check runs even
 * when other parameters are bad, so that one 400 names every bad field.
 */
export const needsOneOf = <T extends z.ZodObject>(query: T, first: string, second: string): T =>
  query.refine((value: Record<string, unknown>) => value[first] !== undefined || value[second] !== undefined, {
    path: [first],
    message: `give a ${first} or a ${second}`,
    when: () => true,
  });
