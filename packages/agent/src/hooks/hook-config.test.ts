import { describe, expect, it } from 'vitest';
import { hookConfigToJSON, mergeHookConfigs, parseHookConfig } from './hook-config.js';
import { hookMatcherMatches } from './hook-matcher.js';
import { InvalidHookConfigError } from './invalid-hook-config-error.js';

describe('parseHookConfig', () => {
  it('reads the .openhands/hooks.json shape (wrapper, PascalCase) and fills defaults', () => {
    const config = parseHookConfig({
      hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ type: 'command', command: './block.sh' }] }] },
    });
    expect(config.pre_tool_use).toEqual([
      { matcher: 'terminal', hooks: [{ type: 'command', command: './block.sh', timeout: 60, async: false }] },
    ]);
    expect(config.stop).toEqual([]);
  });

  it('reads snake_case keys and the serialized form back (round trip)', () => {
    const config = parseHookConfig({ stop: [{ hooks: [{ command: 'check.sh', timeout: 5, name: 'check' }] }] });
    const json = hookConfigToJSON(config);
    expect(json).toMatchObject({
      stop: [
        {
          matcher: '*',
          hooks: [{ type: 'command', name: 'check', command: 'check.sh', timeout: 5, async: false, tools: [] }],
        },
      ],
      pre_tool_use: [],
    });
    expect(parseHookConfig(json)).toEqual(config);
  });

  it('names what is wrong', () => {
    expect(() => parseHookConfig({ BeforeTool: [] })).toThrow(
      /unknown event type 'BeforeTool'. Valid types: PreToolUse/,
    );
    expect(() => parseHookConfig({ PreToolUse: [], pre_tool_use: [] })).toThrow(/given twice/);
    expect(() => parseHookConfig({ Stop: [{ hooks: [{ command: '' }] }] })).toThrow(
      "Invalid hook configuration (hook config: Stop[0].hooks[0]): command: 'command' is required when type is 'command'",
    );
    expect(() => parseHookConfig({ Stop: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }] })).toThrow(/not supported/);
    expect(() => parseHookConfig({ Stop: [{ hooks: [{ command: 'a', timeout: -1 }] }] })).toThrow(
      InvalidHookConfigError,
    );
    expect(() => parseHookConfig('nope')).toThrow(InvalidHookConfigError);
  });

  it('takes functions, and leaves them out of the serialized form', () => {
    const audit = () => undefined;
    const config = parseHookConfig({ PostToolUse: [{ hooks: [audit] }] });
    expect(config.post_tool_use[0]?.hooks[0]).toMatchObject({ type: 'function', name: 'audit', timeout: 60 });
    expect(hookConfigToJSON(config)).toBeNull();
  });

  it('merges by concatenation', () => {
    const a = parseHookConfig({ Stop: [{ hooks: [{ command: 'a' }] }] });
    const b = parseHookConfig({ Stop: [{ hooks: [{ command: 'b' }] }] });
    expect(mergeHookConfigs([a, b]).stop.map((matcher) => matcher.hooks[0])).toMatchObject([
      { command: 'a' },
      { command: 'b' },
    ]);
  });
});

describe('hookMatcherMatches', () => {
  it('follows the reference rules', () => {
    expect(hookMatcherMatches('*', 'terminal')).toBe(true);
    expect(hookMatcherMatches('', undefined)).toBe(true);
    expect(hookMatcherMatches('terminal', undefined)).toBe(false);
    expect(hookMatcherMatches('terminal', 'terminal')).toBe(true);
    expect(hookMatcherMatches('terminal', 'terminal_2')).toBe(false);
    expect(hookMatcherMatches('terminal|file_editor', 'file_editor')).toBe(true);
    expect(hookMatcherMatches('/file_.*/', 'file_editor')).toBe(true);
    expect(hookMatcherMatches('/file_.*/', 'my_file_editor')).toBe(false);
    expect(hookMatcherMatches('a(b', 'a(b')).toBe(true);
  });
});

describe('parseHookConfig: the hooks wrapper', () => {
  it("reads a Claude Code plugin's hooks.json: other top-level keys beside 'hooks' are ignored", () => {
    const config = parseHookConfig({
      description: 'Formats edited files',
      hooks: { PostToolUse: [{ matcher: 'file_editor', hooks: [{ command: './format.sh' }] }] },
    });
    expect(config.post_tool_use).toEqual([
      { matcher: 'file_editor', hooks: [{ type: 'command', command: './format.sh', timeout: 60, async: false }] },
    ]);
  });

  it('refuses an event type beside the wrapper, where it would never run, and a wrapper that is no object', () => {
    expect(() => parseHookConfig({ hooks: {}, Stop: [{ hooks: [{ command: 'a' }] }] })).toThrow(
      "Invalid hook configuration (hook config): event type 'Stop' must be inside 'hooks', not beside it",
    );
    expect(() => parseHookConfig({ hooks: [], description: 'x' })).toThrow(InvalidHookConfigError);
  });
});
