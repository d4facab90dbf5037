import type { schedulingV1 } from '@libs/contracts';
import type { UpstreamCall } from '../platform/upstreams/upstream';
import type { Upstreams } from '../platform/upstreams/upstreams';

/** What the calendar and FHIR renderings name besides the appointment's ids: its service, resource and location. */
export interface AppointmentContext {
  service(id: string): schedulingV1.Service | undefined;
  resource(id: string): schedulingV1.Resource | undefined;
  location(premiseId: string): schedulingV1.Location | undefined;
}

/**
 * Fetches, once each, the services, resources and locations the appointments name, in parallel. Appointments
 * keep a service or resource that has since been deactivated; they are still readable, so each is found.
 */
export async function contextOf(upstreams: Upstreams, appointments: schedulingV1.Appointment[], upstream: UpstreamCall): Promise<AppointmentContext> {
  const scheduling = upstreams.scheduling;
  const distinct = (pick: (a: schedulingV1.Appointment) => string) => [...new Set(appointments.map(pick))];
  const [services, resources, locations] = await Promise.all([
    Promise.all(distinct((a) => a.serviceId).map((id) => scheduling.call((c) => c.getService, { id }, upstream))),
    Promise.all(distinct((a) => a.resourceId).map((id) => scheduling.call((c) => c.getResource, { id }, upstream))),
    Promise.all(distinct((a) => a.locationId).map((premiseId) => scheduling.call((c) => c.getLocation, { premiseId }, upstream))),
  ]);
  const byKey = <T>(items: (T | undefined)[], key: (item: T) => string) =>
    new Map(items.filter((item): item is T => item !== undefined).map((item) => [key(item), item]));
  const serviceMap = byKey(services.map((answer) => answer.service), (s) => s.id);
  const resourceMap = byKey(resources.map((answer) => answer.resource), (r) => r.id);
  const locationMap = byKey(locations.map((answer) => answer.location), (l) => l.premiseId);
  return {
    service: (id) => serviceMap.get(id),
    resource: (id) => resourceMap.get(id),
    location: (premiseId) => locationMap.get(premiseId),
  };
}
