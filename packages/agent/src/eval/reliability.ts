import { InvalidEvalOptionError } from './errors/invalid-eval-option-error.js';

function choose(n: number, k: number): number {
  if (k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** n runs made, c of them passed, k drawn: whole numbers, c at most n; anything else has no meaning here. */
function checkCounts(n: number, c: number, k: number): void {
  for (const [name, value] of [
    ['n', n],
    ['c', c],
    ['k', k],
  ] as const) {
    if (!Number.isInteger(value) || value < 0) throw new InvalidEvalOptionError(name, value, 'a whole number ≥ 0');
  }
  if (c > n) throw new InvalidEvalOptionError('c', c, `at most n (${n}) runs passed`);
}

/**
 * pass@k: the chance that at least one of k runs drawn from the n made passes, given c of them passed
 * (the unbiased estimator of Chen et al. 2021, `1 - C(n-c, k) / C(n, k)`). k is capped at n; no runs, or no
 * draw, pass nothing. Counts that are not whole numbers ≥ 0, or c above n, throw `InvalidEvalOptionError`.
 */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  const draws = Math.min(k, n);
  return 1 - choose(n - c, draws) / choose(n, draws);
}

/**
 * pass^k: the chance that all of k runs drawn from the n made pass (`C(c, k) / C(n, k)`, as τ-bench measures
 * reliability). k is capped at n; no runs pass nothing. Counts as for `passAtK`.
 */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (n === 0) return 0;
  const draws = Math.min(k, n);
  return choose(c, draws) / choose(n, draws);
}
