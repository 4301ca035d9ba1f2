// `--sandbox-limit NAME=VALUE`: each limit by its CLI name or the policy's, its figure in its own unit or with one,
// `unlimited`, the later of two for one limit, and a refusal naming the bad NAME or VALUE; and the policy the
// sandbox flags make of it.
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { collectSandboxLimit } from './sandbox-limit-flag.js';
import { sandboxPolicyOfFlags } from './sandbox-options.js';

const collectAll = (...values: string[]) =>
  values.reduce<ReturnType<typeof collectSandboxLimit>>((limits, value) => collectSandboxLimit(value, limits), {});

describe('--sandbox-limit', () => {
  it('reads sizes in binary units, with or without B / iB, and plain bytes', () => {
    expect(collectAll('memory=512M', 'file-size=2G', 'output=64k')).toEqual({
      memoryBytes: 512 * 1024 ** 2,
      fileSizeBytes: 2 * 1024 ** 3,
      outputBytes: 64 * 1024,
    });
    expect(collectAll('memory=1.5GiB').memoryBytes).toBe(1.5 * 1024 ** 3);
    expect(collectAll('memory=3MB').memoryBytes).toBe(3 * 1024 ** 2);
    expect(collectAll('memory=1T').memoryBytes).toBe(1024 ** 4);
    expect(collectAll('memory=1000').memoryBytes).toBe(1000);
  });

  it('reads durations in the limit’s own unit, or with ms, s, m, h', () => {
    expect(collectAll('wall-time=30s', 'cpu-time=5m')).toEqual({ wallTimeMs: 30_000, cpuTimeSeconds: 300 });
    expect(collectAll('wall-time=250').wallTimeMs).toBe(250);
    expect(collectAll('wall-time=1h').wallTimeMs).toBe(3_600_000);
    expect(collectAll('cpu-time=90').cpuTimeSeconds).toBe(90);
  });

  it('takes the policy’s own names too, unlimited for any limit, and the later value of one limit', () => {
    expect(collectAll('memoryBytes=2G', 'processes=64', 'processes=unlimited', 'fileSizeBytes=UNLIMITED')).toEqual({
      memoryBytes: 2 * 1024 ** 3,
      processes: 'unlimited',
      fileSizeBytes: 'unlimited',
    });
  });

  it('refuses an unknown NAME, naming it and the limits there are', () => {
    expect(() => collectAll('memroy=1G')).toThrow(InvalidArgumentError);
    expect(() => collectAll('memroy=1G')).toThrow(
      "'memroy' is not a sandbox limit (one of memory, processes, file-size, cpu-time, wall-time, output).",
    );
    expect(() => collectAll('memory')).toThrow(
      "expected NAME=VALUE (NAME one of memory, processes, file-size, cpu-time, wall-time, output), got 'memory'.",
    );
  });

  it('refuses a VALUE that is not one for its limit, naming both', () => {
    for (const [flag, why] of [
      ['memory=12X', "'12X' is not a value for the memory limit: expected a number of bytes"],
      ['memory=', "'' is not a value for the memory limit"],
      ['memory=0', "'0' is not a value for the memory limit"],
      ['memory=-1G', "'-1G' is not a value for the memory limit"],
      ['memory=1ib', "'1ib' is not a value for the memory limit"],
      ['processes=1k', "'1k' is not a value for the processes limit: expected a whole number"],
      ['processes=2.5', "'2.5' is not a value for the processes limit"],
      ['cpu-time=500ms', "'500ms' is not a value for the cpu-time limit: expected a duration: seconds"],
      ['cpu-time=1.5s', "'1.5s' is not a value for the cpu-time limit"],
      ['wall-time=3G', "'3G' is not a value for the wall-time limit: expected a duration: milliseconds"],
      ['memory=99999999999T', "'99999999999T' is not a value for the memory limit"],
    ] as const) {
      expect(() => collectAll(flag), flag).toThrow(why);
    }
  });
});

describe('the sandbox flags with limits', () => {
  it('make a sandboxed policy of the limits alone, and leave the policy to the conversation without any flag', () => {
    expect(sandboxPolicyOfFlags({ sandboxLimit: { processes: 'unlimited' } })).toEqual({
      mode: 'sandboxed',
      network: { mode: 'none' },
      readablePaths: [],
      writablePaths: [],
      limits: { processes: 'unlimited' },
    });
    expect(sandboxPolicyOfFlags({ sandbox: true })).not.toHaveProperty('limits');
    expect(sandboxPolicyOfFlags({ sandboxLimit: {} })).toBeUndefined();
  });

  it('refuse limits with --unsandboxed, which has none', () => {
    expect(() => sandboxPolicyOfFlags({ unsandboxed: true, sandboxLimit: { memoryBytes: 1024 } })).toThrow(
      /--unsandboxed runs without a sandbox: leave out .*--sandbox-limit/,
    );
  });
});
