import { z } from 'zod';
import { schedulingApi } from '@libs/contracts';
import { conflictOnKey, idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import { cursor } from '../platform/routing/query-fields';
import { etagHeader, json, locationHeader, page, problem } from '../platform/routing/responses';
import { browse, configure, forbidden, limit, tag } from './scheduling-operation-parts';
import { byId } from '../platform/routing/path-ids';
import { service } from './schemas';

/** Appointment types: their shape and policy (docs/SCHEDULING.md, "Policies"). */

export const listServices = operation({
  method: 'get',
  path: '/api/v1/scheduling/services',
  operationId: 'listSchedulingServices',
  summary: 'Appointment types, by id',
  tag,
  access: browse,
  request: { query: z.object({ limit, cursor }) },
  responses: { '200': json('A page of services.', page('services', service)) },
});

export const getService = operation({
  method: 'get',
  path: '/api/v1/scheduling/services/{id}',
  operationId: 'getSchedulingService',
  summary: 'One appointment type',
  tag,
  access: browse,
  request: { path: byId('Service') },
  responses: { '200': json('The service.', service, etagHeader), '404': problem('No such service.') },
});

export const createService = operation({
  method: 'post',
  path: '/api/v1/scheduling/services',
  operationId: 'createSchedulingService',
  summary: 'Create an appointment type',
  description: 'Writes one audit event.',
  tag,
  access: configure,
  request: { headers: idempotentWrite, body: schedulingApi.newService },
  responses: {
    '201': json('Created; `Location` names it.', service, { ...etagHeader, ...locationHeader }),
    ...forbidden,
    ...conflictOnKey,
  },
});

export const updateService = operation({
  method: 'patch',
  path: '/api/v1/scheduling/services/{id}',
  operationId: 'updateSchedulingService',
  summary: 'Change an appointment type; existing appointments keep the policy they were made under',
  tag,
  access: configure,
  request: { path: byId('Service'), body: schedulingApi.servicePatch },
  ifMatch: true,
  responses: {
    '200': json('The updated service, with its new ETag.', service, etagHeader),
    ...forbidden,
    '404': problem('No such service.'),
  },
});
