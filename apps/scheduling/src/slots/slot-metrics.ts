import { Histogram, metricsRegistry } from '@libs/metrics';

/** What one search's look-ahead for nextAvailable read: bounded by SCHEDULING_LIMITS.lookAheadResourceDays. */
export const lookAheadResourceDays = new Histogram({
  name: 'scheduling_look_ahead_resource_days',
  help: 'Resource-days read by one slot search looking ahead for nextAvailable (days read times resources searched)',
  buckets: [31, 62, 124, 250, 500, 1_000, 1_500, 3_000, 10_000, 30_000],
  registers: [metricsRegistry()],
});
