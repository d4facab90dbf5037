import type { schedulingV1 } from '@libs/contracts';
import type { FhirResource } from '../../reference/fhir/bundle';
import { SCHEDULING_SYSTEMS } from './systems';

/**
 * A free slot → FHIR R4 Slot: status free, on the Schedule of its resource, with the location's offset. It has
 * no id (slots are computed, not stored); its token, which books it, is its identifier.
 */
export function slot(free: schedulingV1.Slot): FhirResource {
  return {
    resourceType: 'Slot',
    identifier: [{ system: SCHEDULING_SYSTEMS.slotToken, value: free.slotToken }],
    serviceType: [{ coding: [{ system: SCHEDULING_SYSTEMS.service, code: free.serviceId }] }],
    schedule: { reference: `Schedule/${free.resourceId}` },
    status: 'free',
    start: free.start,
    end: free.end,
  };
}
