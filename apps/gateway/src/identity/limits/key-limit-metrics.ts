import { Counter, metricsRegistry } from '@libs/metrics';

const registers = [metricsRegistry()];

export const keyRefusals = new Counter({
  name: 'api_key_refusals_total',
  help: 'Requests refused with 429 for being over a key limit, by policy (minute, day, concurrency)',
  labelNames: ['policy'],
  registers,
});

export const keyUsageWrites = new Counter({
  name: 'api_key_usage_writes_total',
  help: 'Batched writes of admitted requests (which also read back every instance\'s counts), by outcome (ok, failed)',
  labelNames: ['outcome'],
  registers,
});
