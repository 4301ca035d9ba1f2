import { describe, expect, it } from 'vitest';
import { commandName, withCommandName } from './command-name.js';

describe('commandName', () => {
  it('is `x` for the installed binary', () => {
    expect(commandName({})).toBe('x');
    expect(withCommandName('resume with `x run --resume <id>`', {})).toBe('resume with `x run --resume <id>`');
  });

  it("follows `pnpm x …` (the root package's script), where a bare x is not on the PATH", () => {
    const env = { npm_lifecycle_event: 'x', npm_config_user_agent: 'pnpm/10.34.9 npm/? node/v20.19.0 linux x64' };
    expect(commandName(env)).toBe('pnpm x');
    expect(withCommandName('resume with `x run --resume <id>`; read `x events`', env)).toBe(
      'resume with `pnpm x run --resume <id>`; read `pnpm x events`',
    );
    expect(commandName({ npm_lifecycle_event: 'x', npm_config_user_agent: 'npm/10.8.2 node/v20.19.0' })).toBe(
      'npm run x --',
    );
  });

  it('lets X_COMMAND_NAME decide, and ignores other scripts', () => {
    expect(commandName({ X_COMMAND_NAME: ' ./bin/x ', npm_lifecycle_event: 'x' })).toBe('./bin/x');
    expect(commandName({ npm_lifecycle_event: 'test', npm_config_user_agent: 'pnpm/10' })).toBe('x');
  });
});
