// The warning a policy's `'unlimited'` limits raise: one per limit turned off, once per process, and none for a
// limit given a figure or left to its default.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { unlimitedSandboxLimits, warnUnlimitedSandboxLimits } from '../src/sandbox/sandbox-limits.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('unlimited sandbox limits', () => {
  it('are exactly the limits set to unlimited', () => {
    expect(unlimitedSandboxLimits({ processes: 'unlimited', memoryBytes: 100, outputBytes: 'unlimited' })).toEqual([
      'processes',
      'outputBytes',
    ]);
    expect(unlimitedSandboxLimits({ memoryBytes: 100 })).toEqual([]);
  });

  it('are warned about once per process each, with the default named', () => {
    // Observed, not replaced: the real warnings are still emitted.
    const emitted = vi.spyOn(process, 'emitWarning');
    warnUnlimitedSandboxLimits({ memoryBytes: 'unlimited', wallTimeMs: 1000 });
    warnUnlimitedSandboxLimits({ memoryBytes: 'unlimited', cpuTimeSeconds: 'unlimited' });
    const warnings = emitted.mock.calls.map(([message]) => String(message));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(`memoryBytes limit is OFF`);
    expect(warnings[0]).toContain(`the default is ${4 * 1024 ** 3}`);
    expect(warnings[1]).toContain('cpuTimeSeconds limit is OFF');
    expect(warnings[1]).not.toContain('the default is');
  });
});
