import { fieldErrorsOf } from './field-errors';
import { POLICY_BOUNDS, REMINDER_LIMITS, SERVICE_SHAPE_BOUNDS } from './limits';
import { dateOverride, newBlock, newResource, newService, policy } from './scheduling';
import { rangeDays } from './scheduling-fields';

const fields = (result: { success: boolean; error?: Parameters<typeof fieldErrorsOf>[0] }) =>
  result.success || !result.error ? [] : fieldErrorsOf(result.error);

const POLICY = Object.fromEntries(Object.entries(POLICY_BOUNDS).map(([field, { min }]) => [field, min]));
const UUID = '00000000-0000-4000-8000-0000005e0001';

describe('scheduling request bodies', () => {
  it.each(Object.entries(POLICY_BOUNDS))('takes policy.%s within its bounds only', (field, { min, max }) => {
    expect(policy.safeParse({ ...POLICY, [field]: max }).success).toBe(true);
    for (const value of [min - 1, max + 1, min + 0.5]) {
      expect(fields(policy.safeParse({ ...POLICY, [field]: value }))).toEqual([{ field, message: `must be an integer from ${min} to ${max}` }]);
    }
  });

  it('gives an omitted per-student cap its default, and still requires the other fields', () => {
    const withoutCaps = Object.fromEntries(Object.entries(POLICY).filter(([field]) => !field.endsWith('PerStudent')));
    expect(policy.parse(withoutCaps)).toMatchObject({ maxActivePerStudent: POLICY_BOUNDS.maxActivePerStudent.default, maxHoldsPerStudent: POLICY_BOUNDS.maxHoldsPerStudent.default });
    const withoutHorizon = Object.fromEntries(Object.entries(POLICY).filter(([field]) => field !== 'horizonDays'));
    expect(fields(policy.safeParse(withoutHorizon))).toEqual([{ field: 'horizonDays', message: 'must be an integer from 1 to 730' }]);
  });

  it('gives an omitted reminder list the default, and keeps reminders canonical, longest first', () => {
    expect(policy.parse(POLICY).reminders).toEqual([...REMINDER_LIMITS.default]);
    expect(policy.parse({ ...POLICY, reminders: [] }).reminders).toEqual([]);
    expect(policy.parse({ ...POLICY, reminders: ['PT30M', 'P1D', 'P1W'] }).reminders).toEqual(['PT168H', 'PT24H', 'PT30M']);
    expect(policy.parse({ ...POLICY, reminders: ['PT90M', 'PT1M'] }).reminders).toEqual(['PT1H30M', 'PT1M']);
  });

  it.each([['P1M'], ['P1Y'], ['PT30S'], ['PT0M'], ['P'], ['PT'], ['-PT1H'], ['P31D'], ['pt1h'], ['PT1H\u0000'], ['x'.repeat(100)]])('refuses the reminder %j', (offset) => {
    const [error] = fields(policy.safeParse({ ...POLICY, reminders: [offset] }));
    expect(error.field).toBe('reminders[0]');
    expect(error.message).toMatch(/^must be an ISO 8601 duration/);
  });

  it('refuses a fourth reminder and a repeat written another way', () => {
    expect(fields(policy.safeParse({ ...POLICY, reminders: ['PT1H', 'PT2H', 'PT3H', 'PT4H'] }))).toEqual([{ field: 'reminders', message: 'must hold at most 3 reminders' }]);
    expect(fields(policy.safeParse({ ...POLICY, reminders: ['P1D', 'PT24H'] }))).toEqual([{ field: 'reminders[1]', message: 'repeats an earlier reminder' }]);
  });

  it('takes a service shape within its bounds, and names every bad field', () => {
    const shape = Object.fromEntries(Object.entries(SERVICE_SHAPE_BOUNDS).map(([field, { max }]) => [field, max]));
    expect(newService.safeParse({ name: 'Consultation', ...shape, policy: POLICY }).success).toBe(true);
    const bad = fields(newService.safeParse({ name: ' ', durationMinutes: SERVICE_SHAPE_BOUNDS.durationMinutes.min - 1, slotStepMinutes: 30 }));
    expect(bad.map((e) => e.field).sort()).toEqual(['durationMinutes', 'name', 'policy']);
    expect(bad.find((e) => e.field === 'policy')?.message).toBe('is required');
  });

  it('refuses a repeated id, case-insensitively, naming its index', () => {
    const result = newResource.safeParse({ locationId: '7', kind: 'room', name: 'Room', serviceIds: [UUID, UUID.toUpperCase()] });
    expect(fields(result)).toEqual([{ field: 'serviceIds[1]', message: 'repeats an earlier id' }]);
  });

  it('wants windows on an open day and none on a closed one', () => {
    expect(dateOverride.safeParse({ closed: true }).success).toBe(true);
    expect(dateOverride.safeParse({ closed: false, windows: [{ start: '09:00', end: '24:00' }] }).success).toBe(true);
    expect(fields(dateOverride.safeParse({ closed: false }))).toEqual([expect.objectContaining({ field: 'windows' })]);
    expect(fields(dateOverride.safeParse({ closed: false, windows: [{ start: '24:00', end: '9:00' }] })).map((e) => e.field)).toEqual([
      'windows[0].start',
      'windows[0].end',
    ]);
  });

  it('takes a block only with instants that carry their offset', () => {
    expect(newBlock.safeParse({ resourceId: UUID, start: '2027-02-01T09:00:00Z', end: '2027-02-01T10:00:00+01:00' }).success).toBe(true);
    expect(fields(newBlock.safeParse({ resourceId: UUID, start: '2027-02-01T09:00', end: '2027-02-01' })).map((e) => e.field)).toEqual(['start', 'end']);
  });
});

describe('rangeDays', () => {
  it('counts local dates on the calendar, both ends included, and instants in elapsed days', () => {
    expect(rangeDays('2027-10-01', '2027-10-31')).toBe(31);
    expect(rangeDays('2027-10-01', '2027-10-01')).toBe(1);
    expect(rangeDays('2027-10-01T00:00:00+01:00', '2027-10-02T00:00:00Z')).toBeCloseTo(1 + 1 / 24);
    expect(rangeDays('2027-10-01', '2027-10-02T00:00:00Z')).toBeUndefined();
  });
});
