import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
let server: ScriptedLLMServer;

/** Credentials in the environment `x run` is started with. */
const secrets: Record<string, string> = {
  OPENAI_API_KEY: 'sk-cli-hostsecret-1',
  ANTHROPIC_API_KEY: 'sk-ant-cli-hostsecret-2',
  AWS_SECRET_ACCESS_KEY: 'aws-cli-hostsecret-3',
  GITHUB_TOKEN: 'ghp-cli-hostsecret-4',
  SESSION_API_KEY: 'session-cli-hostsecret-5',
};

beforeAll(async () => {
  server = await startScriptedLLMServer();
});
afterAll(async () => {
  await server.close();
  home.remove();
});

function eventTexts(stdout: string): string {
  const location = /saved in\s+(\S+)/.exec(stdout)?.[1] ?? '';
  const dir = join(location, 'events');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n');
}

describe('x run: the agent’s shell environment', () => {
  it('does not pass the CLI’s credentials to the shell; --env passes what the user chose', async () => {
    const workspace = tempDir();
    server.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'env | sort' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Listed.' } }] },
    );
    const result = await runCli(['run', 'Show the environment', '--env', 'EDITOR', '--env', 'GREETING=hello there'], {
      env: { X_HOME: home.path, OPENAI_BASE_URL: server.baseURL, EDITOR: 'vi', ...secrets },
      cwd: workspace.path,
    });
    expect(result.code).toBe(0);
    const events = eventTexts(result.stdout);
    expect(events).toContain('PATH=');
    expect(events).toContain('EDITOR=vi');
    expect(events).toContain('GREETING=hello there');
    for (const [name, value] of Object.entries(secrets)) {
      expect(result.stdout, `${name} printed`).not.toContain(value);
      expect(events, `${name} in the event files`).not.toContain(value);
    }
    workspace.remove();
  });

  it('passes --env values named like Object.prototype members, __proto__ included', async () => {
    const workspace = tempDir();
    server.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'env | sort' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Listed.' } }] },
    );
    const names = ['__proto__=V', 'constructor=W', 'toString=X', 'hasOwnProperty=Y'];
    const result = await runCli(['run', 'Show the environment', ...names.flatMap((entry) => ['--env', entry])], {
      env: { X_HOME: home.path, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-cli-test' },
      cwd: workspace.path,
    });
    expect(result.code, result.stderr).toBe(0);
    const events = eventTexts(result.stdout);
    for (const entry of names) expect(events, entry).toContain(entry);
    workspace.remove();
  });

  it('refuses to copy a credential with --env NAME', async () => {
    const result = await runCli(['run', 'x', '--env', 'GITHUB_TOKEN'], {
      env: { X_HOME: home.path, OPENAI_BASE_URL: server.baseURL, ...secrets },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--env GITHUB_TOKEN: it looks like a credential');
  });
});
