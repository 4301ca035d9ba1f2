import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixtureReadablePaths, runCli, tempDir } from './helpers/run-cli.js';

const serverScript = fileURLToPath(new URL('./fixtures/echo-mcp-server.mjs', import.meta.url));
const home = tempDir();
let server: ScriptedLLMServer;
let llmEnv: Record<string, string>;

beforeAll(async () => {
  server = await startScriptedLLMServer();
  llmEnv = { X_HOME: home.path, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL };
});
afterEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await server.close();
  home.remove();
});

type Request = { tools: { function: { name: string } }[]; messages: { role: string; content: unknown }[] };

describe('x run with MCP servers and skills', () => {
  it('gives the model the tools of --mcp-config servers and the workspace AGENTS.md', async () => {
    const workspace = tempDir();
    writeFileSync(join(workspace.path, 'AGENTS.md'), 'Reply in capitals.');
    const config = join(workspace.path, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          echo: { command: process.execPath, args: [serverScript], sandbox: { readablePaths: fixtureReadablePaths } },
        },
      }),
    );
    server.push(
      { toolCalls: [{ name: 'shout', arguments: { text: 'hello' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Shouted.' } }] },
    );
    const result = await runCli(['run', 'Shout hello', '--mcp-config', config], { env: llmEnv, cwd: workspace.path });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('HELLO');
    const first = server.requests[0] as Request;
    expect(first.tools.map((tool) => tool.function.name)).toContain('shout');
    expect(JSON.stringify(first.messages[0])).toContain('Reply in capitals.');
    const second = server.requests[1] as Request;
    expect(JSON.stringify(second.messages.at(-1))).toContain('HELLO');
    workspace.remove();
  });

  it('--no-skills leaves AGENTS.md out', async () => {
    const workspace = tempDir();
    writeFileSync(join(workspace.path, 'AGENTS.md'), 'Reply in capitals.');
    server.push({ content: 'ok' });
    const result = await runCli(['run', 'Hi', '--no-skills'], { env: llmEnv, cwd: workspace.path });
    expect(result.code).toBe(0);
    expect(JSON.stringify((server.requests[0] as Request).messages[0])).not.toContain('Reply in capitals.');
    workspace.remove();
  });

  it('records a keyword-triggered skill on the user message', async () => {
    const workspace = tempDir();
    mkdirSync(join(workspace.path, '.openhands', 'skills'), { recursive: true });
    writeFileSync(
      join(workspace.path, '.openhands', 'skills', 'deploy.md'),
      '---\ntriggers: [deploy]\n---\nUse the blue pipeline.',
    );
    server.push({ content: 'ok' });
    const result = await runCli(['run', 'How do we deploy?'], { env: llmEnv, cwd: workspace.path });
    expect(result.code).toBe(0);
    expect(JSON.stringify((server.requests[0] as Request).messages[1])).toContain('Use the blue pipeline.');
    workspace.remove();
  });

  it("--user-skills loads the user's skills from $X_HOME/skills: invoke_skill returns one", async () => {
    const workspace = tempDir();
    mkdirSync(join(home.path, 'skills', 'release-notes'), { recursive: true });
    writeFileSync(
      join(home.path, 'skills', 'release-notes', 'SKILL.md'),
      '---\nname: release-notes\ndescription: Writes release notes.\n---\nList every change.',
    );
    server.push(
      { toolCalls: [{ name: 'invoke_skill', arguments: { name: 'release-notes' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Noted.' } }] },
    );
    const result = await runCli(['run', 'Write notes', '--user-skills'], { env: llmEnv, cwd: workspace.path });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const first = server.requests[0] as Request;
    expect(first.tools.map((tool) => tool.function.name)).toContain('invoke_skill');
    expect(JSON.stringify((server.requests[1] as Request).messages.at(-1))).toContain('List every change.');
    // Without the flag the user's skills stay out.
    server.push({ content: 'ok' });
    await runCli(['run', 'Hi'], { env: llmEnv, cwd: workspace.path });
    expect((server.requests[2] as Request).tools.map((tool) => tool.function.name)).not.toContain('invoke_skill');
    workspace.remove();
  });

  it('rejects an MCP configuration of the wrong shape with a usage error', async () => {
    const workspace = tempDir();
    const config = join(workspace.path, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { bad: { colour: 'red' } } }));
    const result = await runCli(['run', 'Hi', '--mcp-config', config], { env: llmEnv, cwd: workspace.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Invalid MCP configuration in ${config}: server 'bad'`);
    expect(readFileSync(config, 'utf8')).toContain('colour');
    workspace.remove();
  });
});
