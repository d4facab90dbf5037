import { schedulingV1 } from '@libs/contracts';
import type { UpstreamCall } from '../platform/upstreams/upstream';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { contextOf } from './appointment-context';

/** A scheduling upstream that answers the three lookups and records each call it gets. */
function recordingUpstreams() {
  const calls: string[] = [];
  const client = { getService: 'getService', getResource: 'getResource', getLocation: 'getLocation' };
  const call = async (pick: (c: typeof client) => string, request: { id?: string; premiseId?: string }) => {
    const method = pick(client);
    const id = request.id ?? request.premiseId ?? '';
    calls.push(`${method} ${id}`);
    if (method === 'getService') return { service: schedulingV1.Service.fromPartial({ id, name: `service ${id}` }) };
    if (method === 'getResource') return { resource: schedulingV1.Resource.fromPartial({ id, name: `resource ${id}` }) };
    return { location: schedulingV1.Location.fromPartial({ premiseId: id, name: `location ${id}` }) };
  };
  return { calls, upstreams: { scheduling: { call } } as unknown as Upstreams };
}

const appointment = (serviceId: string, resourceId: string, locationId: string) => schedulingV1.Appointment.fromPartial({ serviceId, resourceId, locationId });
const page = [appointment('s1', 'r1', '1'), appointment('s2', 'r1', '1'), appointment('s1', 'r2', '1')];

describe('what a rendering looks up', () => {
  it('fetches each distinct service, resource and location once per request', async () => {
    const { calls, upstreams } = recordingUpstreams();
    const context = await contextOf(upstreams, page, {} as UpstreamCall);
    expect(calls.sort()).toEqual(['getLocation 1', 'getResource r1', 'getResource r2', 'getService s1', 'getService s2']);
    expect(context.service('s2')?.name).toBe('service s2');
    expect(context.resource('r2')?.name).toBe('resource r2');
    expect(context.location('1')?.name).toBe('location 1');
  });

  it('fetches only the kinds asked for (the calendar names no resource)', async () => {
    const { calls, upstreams } = recordingUpstreams();
    const context = await contextOf(upstreams, [page[0]], {} as UpstreamCall, ['service', 'location']);
    expect(calls).toEqual(['getService s1', 'getLocation 1']);
    expect(context.resource('r1')).toBeUndefined();
  });
});
