// The limits a policy puts in force: the defaults for a policy that names none (a stored `{}` included), each figure
// given, none for each `'unlimited'`; a policy reading back as given (the defaults are applied at use, never
// written into it); and the warning of a limit turned off, once per limit and process.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS, resolveSandboxLimits, sandboxLimitsSchema } from './sandbox-limits.js';
import { sandboxPolicySchema } from './sandbox-policy.js';

const GIB = 1024 ** 3;

describe('resolveSandboxLimits', () => {
  it('gives a policy without limits, or a stored one with `{}`, the defaults: 4 GiB of memory and file, 1,024 processes', () => {
    const expected = { memoryBytes: 4 * GIB, fileSizeBytes: 4 * GIB, processes: 1024 };
    expect(DEFAULT_SANDBOX_LIMITS).toEqual(expected);
    expect(resolveSandboxLimits(sandboxPolicySchema.parse({}).limits)).toEqual(expected);
    expect(resolveSandboxLimits(sandboxPolicySchema.parse({ limits: {} }).limits)).toEqual(expected);
  });

  it('keeps each figure given, and turns off each limit that is unlimited', () => {
    const limits = sandboxLimitsSchema.parse({
      wallTimeMs: 5000,
      cpuTimeSeconds: 'unlimited',
      memoryBytes: 'unlimited',
      fileSizeBytes: 1000,
      outputBytes: 10,
    });
    expect(resolveSandboxLimits(limits)).toEqual({
      wallTimeMs: 5000,
      fileSizeBytes: 1000,
      processes: 1024,
      outputBytes: 10,
    });
    const off = { memoryBytes: 'unlimited', fileSizeBytes: 'unlimited', processes: 'unlimited' } as const;
    expect(resolveSandboxLimits(off)).toEqual({});
  });

  it('leaves the recorded policy as it was given: no default is written into it', () => {
    const given = { limits: { processes: 'unlimited' as const } };
    const policy = sandboxPolicySchema.parse(given);
    expect(policy.limits).toEqual({ processes: 'unlimited' });
    expect(sandboxPolicySchema.parse(JSON.parse(JSON.stringify(policy)))).toEqual(policy);
    expect(sandboxPolicySchema.parse({}).limits).toEqual({});
  });

  it('refuses a limit that is neither a whole number ≥ 1 nor unlimited, naming it', () => {
    for (const limits of [
      { memoryBytes: 0 },
      { processes: 1.5 },
      { fileSizeBytes: 'none' },
      { processes: 'Unlimited' },
    ]) {
      const parsed = sandboxPolicySchema.safeParse({ limits });
      expect(parsed.success, JSON.stringify(limits)).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['limits', Object.keys(limits)[0]]);
    }
  });
});

describe('the warning of a limit turned off', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('is X_SANDBOX_LIMIT_OFF, once per process for each limit, naming it and its default', async () => {
    vi.resetModules();
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const fresh = await import('./sandbox-limits.js');
    fresh.warnUnlimitedSandboxLimits({ memoryBytes: 4096 });
    fresh.warnUnlimitedSandboxLimits({});
    expect(emitWarning).not.toHaveBeenCalled();
    fresh.warnUnlimitedSandboxLimits({ processes: 'unlimited' });
    fresh.warnUnlimitedSandboxLimits({ processes: 'unlimited', memoryBytes: 'unlimited' });
    fresh.warnUnlimitedSandboxLimits({ processes: 'unlimited', memoryBytes: 'unlimited', wallTimeMs: 'unlimited' });
    expect(emitWarning.mock.calls).toEqual([
      [expect.stringMatching(/processes limit is OFF .*the default is 1024\)/), { code: 'X_SANDBOX_LIMIT_OFF' }],
      [
        expect.stringMatching(/memoryBytes limit is OFF .*the default is 4294967296\)/),
        { code: 'X_SANDBOX_LIMIT_OFF' },
      ],
      [
        expect.stringMatching(/wallTimeMs limit is OFF \('unlimited' in the sandbox policy\)/),
        { code: 'X_SANDBOX_LIMIT_OFF' },
      ],
    ]);
  });
});
