import { describe, expect, it } from 'vitest';
import { DEFAULT_STUCK_THRESHOLDS, resolveStuckThresholds, stuckThresholdsSchema } from './stuck-thresholds.js';

describe('DEFAULT_STUCK_THRESHOLDS', () => {
  it('is what the schema fills in for no thresholds, frozen', () => {
    expect(DEFAULT_STUCK_THRESHOLDS).toStrictEqual(stuckThresholdsSchema.parse({}));
    expect(resolveStuckThresholds()).toStrictEqual(DEFAULT_STUCK_THRESHOLDS);
    expect(Object.isFrozen(DEFAULT_STUCK_THRESHOLDS)).toBe(true);
  });
});
