import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { resolveServerConfig } from './server-config.js';

describe('replica settings', () => {
  it('defaults the lease ttl and the recovery interval, and leaves interruptedActions to the run (report)', () => {
    const config = resolveServerConfig({});
    expect(config).toMatchObject({ leaseTtlMs: 15_000, recoveryIntervalMs: 5_000 });
    expect(config.interruptedActions).toBeUndefined();
  });

  it('reads them from the environment; flags win over it', () => {
    const env = {
      X_SERVER_INTERRUPTED_ACTIONS: 'confirm',
      X_SERVER_LEASE_TTL_MS: '2000',
      X_SERVER_RECOVERY_INTERVAL_MS: '0',
    };
    expect(resolveServerConfig(env)).toMatchObject({
      interruptedActions: 'confirm',
      leaseTtlMs: 2000,
      recoveryIntervalMs: 0,
    });
    expect(resolveServerConfig(env, { interruptedActions: 'rerun' }).interruptedActions).toBe('rerun');
  });

  it('refuses an unknown mode or a ttl too short to renew, naming the field', () => {
    const unknown = (() => {
      try {
        return resolveServerConfig({ X_SERVER_INTERRUPTED_ACTIONS: 'retry' });
      } catch (error) {
        return error;
      }
    })();
    expect(unknown).toBeInstanceOf(ZodError);
    expect((unknown as ZodError).issues[0]?.path).toEqual(['interruptedActions']);
    expect(() => resolveServerConfig({}, { leaseTtlMs: 10 })).toThrow(/leaseTtlMs/);
  });
});
