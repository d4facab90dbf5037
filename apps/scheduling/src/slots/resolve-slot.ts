import type { Sequelize } from 'sequelize';
import type { CursorCodec } from '@libs/cursor';
import { GrpcStatus, ProblemError } from '@libs/grpc';
import { isUuid, notFound } from '@libs/validation';
import type { Placement } from '../appointments/appointment-store';
import { policyRefusal } from '../appointments/policy';
import { findResource, listResources, type ResourceRow } from '../resources/resource-store';
import { loadRules } from '../schedules/rule-store';
import { buffersOf, findService, gridOf, type ServiceRow } from '../services/service-store';
import { MS_PER_MINUTE } from '../time/zoned-time';
import { bookingWindow, withBuffers } from './availability';
import { nearestAlternatives } from './slot-finder';
import { candidateSlots } from './slot-grid';
import { decodeSlotToken } from './slot-token';

export interface ResolvedSlot {
  service: ServiceRow;
  resource: ResourceRow;
  placement: Placement;
}

/** A 409 for a slot that cannot be had: taken (or no longer offered), with the nearest free ones. */
export async function slotTaken(
  sequelize: Sequelize,
  cursors: CursorCodec,
  slot: { service: ServiceRow; resource: ResourceRow; start: number },
  why: 'taken' | 'student',
): Promise<ProblemError> {
  if (why === 'student') {
    return new ProblemError(GrpcStatus.ALREADY_EXISTS, 'the student has another appointment at that time', { type: 'student_busy' });
  }
  const resources = await listResources(sequelize, { locationId: slot.resource.location_id, offering: slot.service.id });
  const alternatives = await nearestAlternatives(sequelize, cursors, {
    service: slot.service,
    resources,
    start: slot.start,
    resourceId: slot.resource.id,
    nowMs: Date.now(),
  });
  return new ProblemError(GrpcStatus.ALREADY_EXISTS, 'that slot is no longer free; alternatives lists the nearest free ones', {
    type: 'slot_taken',
    // Slots as the API shows them: a booking names no viewer's zone, so they have no viewer's times ("" in gRPC).
    alternatives: alternatives.map(({ viewerStart: _start, viewerEnd: _end, ...slot }) => slot),
  });
}

/**
 * What a slot token names, checked again now: the service and resource still active, the start still a slot
 * of the resource's hours, and still bookable under the service's policy. Whether it is free is left to the
 * insert, which alone can tell under concurrency.
 */
export async function resolveSlot(sequelize: Sequelize, cursors: CursorCodec, token: string, field = 'slotToken'): Promise<ResolvedSlot> {
  const key = decodeSlotToken(cursors, token, field);
  if (!isUuid(key.serviceId) || !isUuid(key.resourceId)) throw notFound('slot', 'token');
  const service = await findService(sequelize, key.serviceId);
  const resource = await findResource(sequelize, key.resourceId);
  if (!service?.active) throw notFound('service');
  if (!resource?.active || !resource.service_ids.includes(service.id)) throw notFound('resource');
  const rules = (await loadRules(sequelize, [resource])).get(resource.id);
  const slot = rules && candidateSlots(rules, gridOf(service), key.start, key.start + 1).find((s) => s.start === key.start);
  if (!slot) throw await slotTaken(sequelize, cursors, { service, resource, start: key.start }, 'taken');
  const now = Date.now();
  const window = bookingWindow(now, resource.time_zone, service.policy);
  if (slot.start < window.earliestStart) {
    throw policyRefusal('min_notice', `this service is booked at least ${service.policy.minNoticeMinutes} minutes ahead`, slot.start - service.policy.minNoticeMinutes * MS_PER_MINUTE);
  }
  if (slot.start >= window.horizonEnd) {
    throw policyRefusal('beyond_horizon', `this service is booked at most ${service.policy.horizonDays} days ahead`, slot.start);
  }
  const occupied = withBuffers(slot, buffersOf(service));
  return {
    service,
    resource,
    placement: {
      locationId: resource.location_id,
      resourceId: resource.id,
      start: slot.start,
      end: slot.end,
      occupiedStart: occupied.start,
      occupiedEnd: occupied.end,
      timeZone: resource.time_zone,
    },
  };
}
