import { FieldChecks as CommonFieldChecks } from '@libs/validation';

/** Largest |amount| accepted, in minor units: far above any real fee, far below BIGINT and float limits. */
export const MAX_ABS_AMOUNT = 1_000_000_000_000_000n;

/** The common field checks, and finance's amounts. */
export class FieldChecks extends CommonFieldChecks {
  amount(value: string, field: string, options: { positive: boolean } = { positive: false }): this {
    const min = options.positive ? 1n : -MAX_ABS_AMOUNT;
    const ok = /^-?\d{1,19}$/.test(value) && BigInt(value) >= min && BigInt(value) <= MAX_ABS_AMOUNT;
    return this.check(ok, field, `must be an integer number of minor units from ${min} to ${MAX_ABS_AMOUNT}`);
  }
}
