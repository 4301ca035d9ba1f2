function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * pass@k: the chance that at least one of k runs drawn from the n made passes, given c of them passed
 * (the unbiased estimator of Chen et al. 2021, `1 - C(n-c, k) / C(n, k)`). k is capped at n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (n === 0) return 0;
  const draws = Math.min(k, n);
  return 1 - choose(n - c, draws) / choose(n, draws);
}

/**
 * pass^k: the chance that all of k runs drawn from the n made pass (`C(c, k) / C(n, k)`, as τ-bench measures
 * reliability). k is capped at n.
 */
export function passHatK(n: number, c: number, k: number): number {
  if (n === 0) return 0;
  const draws = Math.min(k, n);
  return choose(c, draws) / choose(n, draws);
}
