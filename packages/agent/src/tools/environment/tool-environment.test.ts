import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTerminalTool } from '../terminal-tool.js';
import {
  buildToolEnvironment,
  defaultInheritedVariables,
  isSensitiveVariableName,
  validateToolEnvironment,
} from './tool-environment.js';
import { ToolEnvironmentError } from './tool-environment-error.js';

/** A host environment like a server's: what a shell needs, plus every kind of credential. */
const secrets: Record<string, string> = {
  SESSION_API_KEY: 'session-key-0001',
  X_SESSION_API_KEY: 'session-key-0002',
  OH_SECRET_KEY: 'fernet-key-0003',
  X_SECRET_KEY: 'fernet-key-0004',
  OPENAI_API_KEY: 'sk-openai-0005',
  OPENAI_BASE_URL: 'http://127.0.0.1:1/openai-0006',
  ANTHROPIC_API_KEY: 'sk-ant-0007',
  AWS_ACCESS_KEY_ID: 'AKIA0008',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-0009',
  AWS_SESSION_TOKEN: 'aws-token-0010',
  GITHUB_TOKEN: 'ghp-0011',
  DB_PASSWORD: 'db-password-0012',
  MY_SERVICE_SECRET: 'service-secret-0013',
  STRIPE_KEY: 'stripe-0014',
};

describe('buildToolEnvironment', () => {
  const host = { PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8', LC_ALL: 'C', EDITOR: 'vi', ...secrets };

  it('copies only the default variables by default, never credentials', () => {
    expect(buildToolEnvironment(undefined, host)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
    });
    expect(defaultInheritedVariables).toContain('PATH');
  });

  it('adds inherited names and explicit values; secrets of the command come last', () => {
    const env = buildToolEnvironment({ inherit: [...defaultInheritedVariables, 'EDITOR'], set: { CI: '1' } }, host, {
      GITHUB_TOKEN: 'from-the-secret-registry',
    });
    expect(env).toMatchObject({ EDITOR: 'vi', CI: '1', GITHUB_TOKEN: 'from-the-secret-registry' });
    expect(env.OPENAI_API_KEY).toBeUndefined();
  });

  it('keeps names of Object.prototype members as own keys, whether inherited, set or given by the command', () => {
    // JSON.parse and Object.fromEntries make `__proto__` an own key (as process.env does); a literal would not.
    const withNames = { ...host, ...JSON.parse('{"__proto__":"V","constructor":"W"}') };
    const env = buildToolEnvironment(
      { inherit: ['PATH', '__proto__', 'constructor'], set: Object.fromEntries([['toString', 'X']]) },
      withNames,
      Object.fromEntries([['hasOwnProperty', 'Y']]),
    );
    expect(Object.entries(env)).toEqual([
      ['PATH', '/usr/bin'],
      ['__proto__', 'V'],
      ['constructor', 'W'],
      ['toString', 'X'],
      ['hasOwnProperty', 'Y'],
    ]);
    // Not inherited unless asked: read as own entries, never from Object.prototype.
    expect(Object.keys(buildToolEnvironment({ inherit: ['PATH'] }, withNames))).toEqual(['PATH']);
  });

  it('never copies a credential even when a prefix pattern matches it', () => {
    expect(buildToolEnvironment({ inherit: ['MY_*', 'STRIPE*'] }, host)).toEqual({});
  });

  it('recognises credential names', () => {
    for (const name of Object.keys(secrets)) expect(isSensitiveVariableName(name), name).toBe(true);
    for (const name of ['PATH', 'HOME', 'LANG', 'TERM', 'EDITOR', 'CI', 'NODE_ENV', 'PYTHONPATH', 'KEYBOARD_LAYOUT']) {
      expect(isSensitiveVariableName(name), name).toBe(false);
    }
  });

  it('refuses to inherit a credential or a bad name, with a typed error saying what to do', () => {
    expect(() => validateToolEnvironment({ inherit: ['OPENAI_API_KEY'] })).toThrow(ToolEnvironmentError);
    expect(() => validateToolEnvironment({ inherit: ['OPENAI_API_KEY'] })).toThrow(/conversation secret/);
    expect(() => validateToolEnvironment({ inherit: ['BAD NAME'] })).toThrow(/not a variable name/);
    expect(() => validateToolEnvironment({ set: { '1X': 'v' } })).toThrow(/not a valid variable name/);
    expect(() => createTerminalTool({ environment: { inherit: ['AWS_*'] } })).toThrow(ToolEnvironmentError);
  });
});

describe('the terminal under a process environment full of secrets', () => {
  let workspace: string;
  const saved: Record<string, string | undefined> = {};
  const terminal = createTerminalTool();

  beforeAll(async () => {
    workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-tool-env-')));
    for (const [name, value] of Object.entries(secrets)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(async () => {
    await terminal.closeAll();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
  });

  it('sees none of them: `env` prints only the minimal environment', async () => {
    const observation = await terminal.execute(
      { command: 'env; cat /proc/$$/environ | tr "\\0" "\\n"', kind: 'TerminalAction' },
      { workspace, conversationId: 'env-test' },
    );
    const output = JSON.stringify(observation);
    expect(output).toContain('PATH=');
    for (const [name, value] of Object.entries(secrets)) {
      expect(output, name).not.toContain(value);
    }
  });

  it('sees a conversation secret only when handed over, masked in the output', async () => {
    const observation = await terminal.execute(
      { command: 'echo "$GITHUB_TOKEN"', kind: 'TerminalAction' },
      {
        workspace,
        conversationId: 'env-test-2',
        env: { GITHUB_TOKEN: 'ghp-user-given' },
        secretValues: ['ghp-user-given'],
      },
    );
    expect(JSON.stringify(observation)).not.toContain('ghp-user-given');
    expect(JSON.stringify(observation)).not.toContain(secrets.GITHUB_TOKEN);
    expect(observation.content).toEqual([{ cache_prompt: false, type: 'text', text: '<secret-hidden>' }]);
  });
});
