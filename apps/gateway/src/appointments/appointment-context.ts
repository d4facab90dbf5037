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
 * Fetches, once each, the services, resources and locations the appointments name. One call at a time: every
 * call takes one of the caller's key's concurrency places (a student has 4), so calls in parallel would turn a
 * page naming several resources into a 429. Appointments keep a service or resource that has since been
 * deactivated; it is still readable, so each is found.
 */
export async function contextOf(upstreams: Upstreams, appointments: schedulingV1.Appointment[], upstream: UpstreamCall): Promise<AppointmentContext> {
  const scheduling = upstreams.scheduling;
  const services = new Map<string, schedulingV1.Service | undefined>();
  const resources = new Map<string, schedulingV1.Resource | undefined>();
  const locations = new Map<string, schedulingV1.Location | undefined>();
  for (const appointment of appointments) {
    if (!services.has(appointment.serviceId)) {
      services.set(appointment.serviceId, (await scheduling.call((c) => c.getService, { id: appointment.serviceId }, upstream)).service);
    }
    if (!resources.has(appointment.resourceId)) {
      resources.set(appointment.resourceId, (await scheduling.call((c) => c.getResource, { id: appointment.resourceId }, upstream)).resource);
    }
    if (!locations.has(appointment.locationId)) {
      const premiseId = appointment.locationId;
      locations.set(premiseId, (await scheduling.call((c) => c.getLocation, { premiseId }, upstream)).location);
    }
  }
  return {
    service: (id) => services.get(id),
    resource: (id) => resources.get(id),
    location: (premiseId) => locations.get(premiseId),
  };
}
