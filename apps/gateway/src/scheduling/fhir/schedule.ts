import type { schedulingV1 } from '@libs/contracts';
import type { FhirResource } from '../../reference/fhir/bundle';
import { SCHEDULING_SYSTEMS } from './systems';

/**
 * A resource → its FHIR R4 Schedule (same id): its actors are the location (the reference service's premise,
 * `Location/{premiseId}` as the premises' FHIR view names it) and the practitioner or room itself, by name
 * (they have no FHIR resource of their own here); the services it offers are its serviceTypes.
 */
export function schedule(resource: schedulingV1.Resource): FhirResource {
  return {
    resourceType: 'Schedule',
    id: resource.id,
    identifier: [{ system: SCHEDULING_SYSTEMS.resource, value: resource.id }],
    active: resource.active,
    ...(resource.serviceIds.length > 0
      ? { serviceType: resource.serviceIds.map((id) => ({ coding: [{ system: SCHEDULING_SYSTEMS.service, code: id }] })) }
      : {}),
    actor: [{ reference: `Location/${resource.locationId}` }, { display: resource.name }],
    comment: `${resource.kind === 'room' ? 'Room' : 'Practitioner'}: ${resource.name}`,
  };
}
