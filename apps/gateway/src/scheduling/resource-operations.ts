import { z } from 'zod';
import { schedulingApi } from '@libs/contracts';
import { format, withFhir } from '../platform/http/fhir-response';
import { conflictOnKey, idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import { cursor, queryOf } from '../platform/routing/query-fields';
import { etagHeader, json, locationHeader, page, problem } from '../platform/routing/responses';
import { browse, configure, forbidden, limit, tag } from './scheduling-operation-parts';
import { byId } from '../platform/routing/path-ids';
import { resource } from './schemas';

/**
 * Practitioners and rooms. In FHIR (`_format=fhir`) a resource is its Schedule (a FHIR client books against
 * schedules): the list is a searchset Bundle of Schedule, one resource a Schedule with the resource's id.
 */

export const listResources = operation({
  method: 'get',
  path: '/api/v1/scheduling/resources',
  operationId: 'listSchedulingResources',
  summary: 'Resources (practitioners and rooms), by id',
  tag,
  access: browse,
  request: {
    query: z.object({
      location: queryOf(schedulingApi.premiseId).optional().meta({ description: 'Only the resources of this location (premise id).' }),
      limit,
      cursor,
      _format: format,
    }),
  },
  responses: {
    '200': withFhir(json('A page of resources.', page('resources', resource)), { resourceType: 'Schedule', interaction: 'search-type' }),
  },
});

export const getResource = operation({
  method: 'get',
  path: '/api/v1/scheduling/resources/{id}',
  operationId: 'getSchedulingResource',
  summary: 'One resource',
  tag,
  access: browse,
  request: { path: byId('Resource'), query: z.object({ _format: format }) },
  responses: {
    '200': withFhir(json('The resource.', resource, etagHeader), { resourceType: 'Schedule', interaction: 'read' }),
    '404': problem('No such resource.'),
  },
});

export const createResource = operation({
  method: 'post',
  path: '/api/v1/scheduling/resources',
  operationId: 'createSchedulingResource',
  summary: 'Create a resource at a location',
  description: 'The location and services must exist (else 400 naming the field). Writes one audit event.',
  tag,
  access: configure,
  request: { headers: idempotentWrite, body: schedulingApi.newResource },
  responses: {
    '201': json('Created; `Location` names it.', resource, { ...etagHeader, ...locationHeader }),
    ...forbidden,
    ...conflictOnKey,
  },
});

export const updateResource = operation({
  method: 'patch',
  path: '/api/v1/scheduling/resources/{id}',
  operationId: 'updateSchedulingResource',
  summary: 'Change a resource: name, active, services, staff',
  tag,
  access: configure,
  request: { path: byId('Resource'), body: schedulingApi.resourcePatch },
  ifMatch: true,
  responses: {
    '200': json('The updated resource, with its new ETag.', resource, etagHeader),
    ...forbidden,
    '404': problem('No such resource.'),
  },
});
