import { InvalidEvalOptionError } from './errors/invalid-eval-option-error.js';

/** The most live runs a case may ask for: the suite file's own limit. */
export const MAX_RUNS = 1000;

/**
 * A count option (`runs`, `k`): a whole number from 1 to `MAX_RUNS`. Zero, negative, fractional, NaN or infinite
 * counts would make a case run no times (and look passed), a fractional number of draws, or never stop.
 */
export function checkCountOption(option: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 1 || value > MAX_RUNS) {
    throw new InvalidEvalOptionError(option, value, `a whole number from 1 to ${MAX_RUNS}`);
  }
}

/** A pass-rate option (`tolerance`): a finite number from 0 to 1; NaN would make every comparison false. */
export function checkRateOption(option: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidEvalOptionError(option, value, 'a pass rate from 0 to 1');
  }
}

/** A limit option (`usd`, `seconds`): a finite number above 0; NaN would fail every run, Infinity pass every one. */
export function checkLimitOption(option: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new InvalidEvalOptionError(option, value, 'a number above 0');
}
