import { toResourceJson, type schedulingV1 } from '@libs/contracts';
import { representationOf, sendRepresentation } from '../platform/http/fhir-response';
import { etagOf } from '../platform/http/if-match';
import type { Caller } from '../platform/routing/access';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { searchsetBundle } from '../reference/fhir/bundle';
import { schedule } from './fhir/schedule';
import * as op from './resource-operations';
import { seesStaff } from './staff-view';
import { nextCursorOf, returned, sendRecord } from './scheduling-response';

/** Who staffs a resource is for staff only (the service sends the others an empty list): left out for them. */
function resourceJsonFor(caller: Caller) {
  const staff = seesStaff(caller);
  return (resource: schedulingV1.Resource) => {
    const { staffUserIds, ...json } = toResourceJson(resource);
    return staff ? { ...json, staffUserIds } : json;
  };
}

/** A list (`{ids}`) replaces the linked ids; absent, they stay as they are. */
const idList = (ids: string[] | undefined) => (ids === undefined ? undefined : { ids });

/** /api/v1/scheduling/resources. */
export function resourceRoutes(upstreams: Upstreams): Route[] {
  const scheduling = upstreams.scheduling;
  return [
    route(op.listResources, async ({ query }, { req, res, caller, upstream }) => {
      const request = { locationId: query.location ?? '', limit: query.limit, cursor: query.cursor ?? '' };
      const page = await scheduling.call((c) => c.listResources, request, upstream);
      sendRepresentation(res, representationOf(req, query._format), {
        json: () => ({ resources: page.resources.map(resourceJsonFor(caller)), ...nextCursorOf(page.nextCursor) }),
        fhir: () => searchsetBundle(req, page.resources.map(schedule), page.nextCursor),
      });
    }),

    route(op.getResource, async ({ path, query }, { req, res, caller, upstream }) => {
      const resource = returned((await scheduling.call((c) => c.getResource, { id: path.id }, upstream)).resource);
      res.setHeader('ETag', etagOf(resource.version));
      sendRepresentation(res, representationOf(req, query._format), { json: () => resourceJsonFor(caller)(resource), fhir: () => schedule(resource) });
    }),

    route(op.createResource, async ({ headers, body }, { res, caller, upstream }) => {
      const input = { ...body, serviceIds: body.serviceIds ?? [], staffUserIds: body.staffUserIds ?? [] };
      const request = { input, idempotencyKey: headers['Idempotency-Key'] ?? '' };
      const { resource } = await scheduling.call((c) => c.createResource, request, upstream);
      res.location(`${op.createResource.path}/${resource?.id}`);
      sendRecord(res, resource, resourceJsonFor(caller), 201);
    }),

    route(op.updateResource, async ({ path, body, expectedVersion }, { res, caller, upstream }) => {
      const request = {
        id: path.id,
        expectedVersion,
        name: body.name,
        active: body.active,
        serviceIds: idList(body.serviceIds),
        staffUserIds: idList(body.staffUserIds),
      };
      const { resource } = await scheduling.call((c) => c.updateResource, request, upstream);
      sendRecord(res, resource, resourceJsonFor(caller));
    }),
  ];
}
