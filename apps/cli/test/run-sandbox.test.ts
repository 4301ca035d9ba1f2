// `x run` runs the agent's processes in a sandbox by default; --allow-network (all or a host list) and
// --allow-read/--allow-write widen it, --unsandboxed opts out (and says so, loudly, once). The policy is recorded
// with the conversation.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBackground } from './helpers/background.js';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
let server: ScriptedLLMServer;
let llmEnv: Record<string, string>;

beforeAll(async () => {
  server = await startScriptedLLMServer();
  llmEnv = { X_HOME: home.path, HOME: home.path, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL };
});
afterEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await server.close();
  home.remove();
});

const finish = { toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] };
const terminal = (command: string) => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });

describe('x run and the sandbox', () => {
  it('runs the terminal in a sandbox by default and shows the policy in the header', async () => {
    const workspace = tempDir();
    server.push(terminal(`tr '\\0' ' ' < /proc/1/cmdline`), finish);
    const result = await runCli(['run', 'Where am I?', '--json'], { env: llmEnv, cwd: workspace.path });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/sandbox\s+bubblewrap, network none/);
    expect(result.stdout).toMatch(/bwrap /);
    expect(result.stderr).not.toContain('WITHOUT a sandbox');
    workspace.remove();
  });

  it('--allow-network alone allows all of it; with hosts, only those; the policy is recorded', async () => {
    const workspace = tempDir();
    server.push(finish);
    const all = await runCli(['run', 'Hi', '--allow-network'], { env: llmEnv, cwd: workspace.path });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/sandbox\s+bubblewrap, network all/);
    server.push(finish);
    const some = await runCli(['run', 'Hi', '--allow-network', 'example.com,*.example.org'], {
      env: llmEnv,
      cwd: workspace.path,
    });
    expect(some.code, some.stderr).toBe(0);
    expect(some.stdout).toMatch(/sandbox\s+bubblewrap, network example\.com, \*\.example\.org/);
    const policies = readdirSync(join(home.path, 'conversations')).map(
      (name) =>
        (
          JSON.parse(readFileSync(join(home.path, 'conversations', name, 'x_sandbox_policy.json'), 'utf8')) as {
            entries: { policy: { network: { mode: string; hosts?: string[] } } }[];
          }
        ).entries[0]?.policy.network,
    );
    expect(policies).toContainEqual({ mode: 'all' });
    expect(policies).toContainEqual({ mode: 'allowlist', hosts: ['example.com', '*.example.org'] });
    const shown = await Promise.all(
      readdirSync(join(home.path, 'conversations')).map((name) =>
        runCli(['inspect', join(home.path, 'conversations', name)], { env: llmEnv }),
      ),
    );
    expect(shown.map((result) => result.stdout).join('\n')).toMatch(
      /sandbox\s+bubblewrap, network example\.com, \*\.example\.org/,
    );
    workspace.remove();
  });

  it('--unsandboxed runs on the host and warns once', async () => {
    const workspace = tempDir();
    server.push(terminal('readlink /proc/self/ns/pid'), terminal('true'), finish);
    const result = await runCli(['run', 'Where am I?', '--unsandboxed', '--json'], {
      env: llmEnv,
      cwd: workspace.path,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(readlinkSync('/proc/self/ns/pid'));
    expect(result.stderr.match(/running tools WITHOUT a sandbox/g)).toHaveLength(1);
    expect(result.stderr).toMatch(/sandbox\s+NONE/);
    workspace.remove();
  });

  it('refuses --unsandboxed with an --allow-* option', async () => {
    const result = await runCli(['run', 'Hi', '--unsandboxed', '--allow-network'], { env: llmEnv });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--unsandboxed runs without a sandbox');
    expect(server.requests).toHaveLength(0);
  });

  it('--sandbox-limit sets a limit, turns one off (warned about), is recorded as given; a bad one is refused by name', async () => {
    const unknown = await runCli(['run', 'Hi', '--sandbox-limit', 'memroy=1G'], { env: llmEnv });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("'memroy' is not a sandbox limit (one of memory, processes, file-size,");
    const bad = await runCli(['run', 'Hi', '--sandbox-limit', 'memory=lots'], { env: llmEnv });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'lots' is not a value for the memory limit");
    expect(server.requests).toHaveLength(0);

    const workspace = tempDir();
    const data = tempDir();
    server.push(terminal('echo "files $(ulimit -f) processes $(ulimit -u)"'), finish);
    const args = ['--sandbox-limit', 'file-size=1M', '--sandbox-limit', 'processes=unlimited', '--data-dir', data.path];
    const limited = await runCli(['run', 'Hi', '--json', ...args], { env: llmEnv, cwd: workspace.path });
    expect(limited.code, limited.stderr).toBe(0);
    // ulimit -f counts blocks of 1024 bytes; without a process limit of the sandbox's, the host's own holds.
    const hostProcesses = execFileSync('/bin/bash', ['-c', 'ulimit -u'], { encoding: 'utf8' }).trim();
    expect(hostProcesses).not.toBe('1024');
    expect(limited.stdout).toContain(`files 1024 processes ${hostProcesses}`);
    expect(limited.stderr.match(/\[X_SANDBOX_LIMIT_OFF\] Warning: The sandbox's processes limit is OFF/g)).toHaveLength(
      1,
    );
    const [name] = readdirSync(data.path);
    const record = JSON.parse(readFileSync(join(data.path, name ?? '', 'x_sandbox_policy.json'), 'utf8')) as {
      entries: { policy: { limits: unknown } }[];
    };
    expect(record.entries[0]?.policy.limits).toEqual({ fileSizeBytes: 1024 * 1024, processes: 'unlimited' });
    workspace.remove();
    data.remove();
  });

  it('--allow-private-networks widens a host list, says so in the header and is recorded; alone it is refused', async () => {
    const refused = await runCli(['run', 'Hi', '--allow-private-networks'], { env: llmEnv });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--allow-private-networks widens a host list');
    const all = await runCli(['run', 'Hi', '--allow-network', '--allow-private-networks'], { env: llmEnv });
    expect(all.code).toBe(2);
    expect(server.requests).toHaveLength(0);

    const workspace = tempDir();
    const data = tempDir();
    server.push(finish);
    const widened = await runCli(
      ['run', 'Hi', '--allow-network', 'db.internal.example:5432', '--allow-private-networks', '--data-dir', data.path],
      { env: llmEnv, cwd: workspace.path },
    );
    expect(widened.code, widened.stderr).toBe(0);
    expect(widened.stdout).toMatch(/network db\.internal\.example:5432 \(private networks allowed\)/);
    const [name] = readdirSync(data.path);
    const record = JSON.parse(readFileSync(join(data.path, name ?? '', 'x_sandbox_policy.json'), 'utf8')) as {
      entries: { policy: { network: unknown } }[];
    };
    expect(record.entries[0]?.policy.network).toEqual({
      mode: 'allowlist',
      hosts: ['db.internal.example:5432'],
      allowPrivateNetworks: true,
    });
    workspace.remove();
    data.remove();
  });
});

describe('x mcp and the sandbox', () => {
  it('takes --sandbox-limit as x run does, refusing a bad NAME or VALUE by name before serving', async () => {
    const unknown = await runCli(['mcp', '--sandbox-limit', 'memroy=1G'], { env: llmEnv });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("'memroy' is not a sandbox limit (one of memory, processes, file-size,");
    const bad = await runCli(['mcp', '--sandbox-limit', 'processes=1.5'], { env: llmEnv });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'1.5' is not a value for the processes limit: expected a whole number");
    const unsandboxed = await runCli(['mcp', '--unsandboxed', '--sandbox-limit', 'memory=1G'], { env: llmEnv });
    expect(unsandboxed.code).toBe(2);
    expect(unsandboxed.stderr).toContain('leave out --sandbox, the --allow-* options and --sandbox-limit');
  });
});

describe('x serve and the sandbox', () => {
  it('says in its banner that conversations run in bubblewrap; --unsandboxed says NONE and warns', async () => {
    const sandboxed = startBackground(['serve', '--port', '0', '--data-dir', join(home.path, 'served')], {
      X_HOME: home.path,
      HOME: home.path,
    });
    await sandboxed.waitFor(/sandbox\s+bubblewrap/, undefined, 'stderr');
    expect(await sandboxed.interrupt()).toBe(0);

    const open = startBackground(
      ['serve', '--port', '0', '--unsandboxed', '--data-dir', join(home.path, 'served-open')],
      { X_HOME: home.path, HOME: home.path },
    );
    await open.waitFor(/sandbox\s+NONE: tools run with the server’s authority \(--unsandboxed\)/, undefined, 'stderr');
    await open.waitFor(/running tools WITHOUT a sandbox: the server was started with --unsandboxed/);
    expect(await open.interrupt()).toBe(0);
  });
});
