import { Counter, metricsRegistry } from '@libs/metrics';

const registers = [metricsRegistry()];

/** What a verification found wrong, so an alert need not parse `/verify`'s words. */
export type BreakKind = 'entry' | 'checkpoint_contradicted' | 'checkpoint_forged' | 'end_cut';

export const chainBreaksFound = new Counter({
  name: 'audit_chain_breaks_found_total',
  help: 'Verifications that found the chain broken, by what broke it: entry (altered, removed or inserted), checkpoint_contradicted (rewritten with recomputed hashes), checkpoint_forged, end_cut',
  labelNames: ['kind'],
  registers,
});

export const checkpointsSigned = new Counter({
  name: 'audit_checkpoints_signed_total',
  help: "Checkpoints of the chain's head this instance signed",
  registers,
});
