import { schedulingApi } from '@libs/contracts';
import { operation } from '../platform/routing/operation';
import { cursor } from '../platform/routing/query-fields';
import { etagHeader, json, locationHeader, page, problem } from '../platform/routing/responses';
import { z } from 'zod';
import { browse, byPremise, configure, forbidden, limit, tag } from './scheduling-operation-parts';
import { location } from './schemas';

/** Bookable premises (docs/SCHEDULING.md). */

export const listLocations = operation({
  method: 'get',
  path: '/api/v1/scheduling/locations',
  operationId: 'listSchedulingLocations',
  summary: 'Bookable locations, by premise id',
  tag,
  access: browse,
  request: { query: z.object({ limit, cursor }) },
  responses: { '200': json('A page of locations.', page('locations', location)) },
});

export const getLocation = operation({
  method: 'get',
  path: '/api/v1/scheduling/locations/{premiseId}',
  operationId: 'getSchedulingLocation',
  summary: 'One bookable location',
  tag,
  access: browse,
  request: { path: byPremise },
  responses: { '200': json('The location.', location, etagHeader), '404': problem('Booking is not enabled at this premise.') },
});

export const putLocation = operation({
  method: 'put',
  path: '/api/v1/scheduling/locations/{premiseId}',
  operationId: 'putSchedulingLocation',
  summary: 'Enable booking at a premise, or change its time zone',
  description: 'The premise must exist in the reference service (else 404). Writes one audit event.',
  tag,
  access: configure,
  request: { path: byPremise, body: schedulingApi.locationPut },
  ifMatch: true,
  responses: {
    '201': json('Booking is now enabled there; `Location` names it.', location, { ...etagHeader, ...locationHeader }),
    '200': json('The location, changed.', location, etagHeader),
    ...forbidden,
    '404': problem('No such premise.'),
  },
});
