import { describe, expect, it } from 'vitest';
import { emptyHookConfig, isHookConfigEmpty, parseHookConfig } from './hook-config.js';
import { HookRunner } from './hook-runner.js';
import { InvalidHookConfigError } from './invalid-hook-config-error.js';

describe('a configuration with hooks is never taken for an empty one', () => {
  it('counts a single hook, of either kind, as a configuration to run', () => {
    const oneCommand = parseHookConfig({ PreToolUse: [{ matcher: 'terminal', hooks: [{ command: './block.sh' }] }] });
    const oneFunction = parseHookConfig({ Stop: [{ hooks: [() => undefined] }] });
    const two = parseHookConfig({ Stop: [{ hooks: [{ command: 'a' }, { command: 'b' }] }] });
    for (const config of [oneCommand, oneFunction, two]) expect(isHookConfigEmpty(config)).toBe(false);
    // A runner that thought itself empty would be dropped, and the blocking hook would never run.
    expect(new HookRunner({ config: oneCommand, workspace: '/tmp', sessionId: 's' }).isEmpty).toBe(false);
  });

  it('counts no event types, and matchers without hooks, as empty', () => {
    expect(isHookConfigEmpty(emptyHookConfig())).toBe(true);
    expect(isHookConfigEmpty(parseHookConfig({ PreToolUse: [{ matcher: 'terminal', hooks: [] }], Stop: [{}] }))).toBe(
      true,
    );
  });
});

describe('a matcher whose hooks are not a list', () => {
  it.each([false, 0, '', 'echo hi', {}])('is refused rather than read as no hooks (%j)', (hooks) => {
    expect(() => parseHookConfig({ PreToolUse: [{ matcher: 'terminal', hooks }] })).toThrow(
      new InvalidHookConfigError('hook config: PreToolUse[0]', "'hooks' must be a list"),
    );
  });
});

describe('a function hook timeout', () => {
  const run = () => undefined;

  it.each([0, -1, Number.NaN, '5'])('is refused unless a positive number of seconds (%j)', (timeout) => {
    expect(() => parseHookConfig({ Stop: [{ hooks: [{ run, timeout }] }] })).toThrow(
      /Stop\[0\]\.hooks\[0\].*'timeout' must be a positive number of seconds/,
    );
  });

  it('keeps a positive timeout, fractions included', () => {
    const config = parseHookConfig({ Stop: [{ hooks: [{ run, timeout: 0.5 }] }] });
    expect(config.stop[0]?.hooks[0]).toMatchObject({ type: 'function', timeout: 0.5 });
  });
});
