// Issue 15's end-to-end check: one `x run` with an MCP server (a real stdio server from the SDK), a blocking
// PreToolUse hook (a real shell script) and a keyword-triggered skill from the workspace. The model (a scripted
// OpenAI-compatible server) calls the MCP tool, then a terminal command the hook refuses, then finishes; the event
// log records all three as the reference does.
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureReadablePaths, runCli, tempDir } from './helpers/run-cli.js';

const mcpServerScript = fileURLToPath(new URL('./fixtures/echo-mcp-server.mjs', import.meta.url));
const home = tempDir();
let llm: ScriptedLLMServer;

beforeAll(async () => {
  llm = await startScriptedLLMServer();
});
afterAll(async () => {
  await llm.close();
  home.remove();
});

type ChatRequest = { tools: { function: { name: string } }[]; messages: { role: string; content: unknown }[] };

function eventsOf(conversationsDir: string): Record<string, unknown>[] {
  const [conversation] = readdirSync(conversationsDir);
  const dir = join(conversationsDir, conversation ?? '', 'events');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>);
}

describe('x run with an MCP server, a blocking hook and a skill in one run', () => {
  it('uses the MCP tool, lets the hook refuse a command, and activates the skill', async () => {
    const workspace = tempDir();
    const mcpConfig = join(workspace.path, 'mcp.json');
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: {
          echo: {
            command: process.execPath,
            args: [mcpServerScript],
            sandbox: { readablePaths: fixtureReadablePaths },
          },
        },
      }),
    );
    mkdirSync(join(workspace.path, '.openhands', 'skills'), { recursive: true });
    writeFileSync(
      join(workspace.path, '.openhands', 'skills', 'release.md'),
      '---\ntriggers: [release]\n---\nAlways shout the release name first.',
    );
    const hook = join(workspace.path, 'no-rm.sh');
    writeFileSync(hook, '#!/bin/sh\nif grep -q "rm -rf" ; then echo "rm -rf is not allowed" >&2; exit 2; fi\nexit 0\n');
    chmodSync(hook, 0o755);
    const hooks = join(workspace.path, 'hooks.json');
    writeFileSync(
      hooks,
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ type: 'command', command: hook }] }] } }),
    );
    llm.push(
      { toolCalls: [{ name: 'shout', arguments: { text: 'aurora' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build', security_risk: 'LOW' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Released AURORA.' } }] },
    );

    const result = await runCli(['run', 'Prepare the release of aurora', '--mcp-config', mcpConfig, '--hooks', hooks], {
      env: { X_HOME: home.path, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseURL },
      cwd: workspace.path,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('AURORA');

    // The model saw the MCP tool and the triggered skill's text on the user message.
    const first = llm.requests[0] as ChatRequest;
    expect(first.tools.map((tool) => tool.function.name)).toContain('shout');
    expect(JSON.stringify(first.messages)).toContain('Always shout the release name first.');
    // The refusal reached the model as the rejection of its command.
    const third = llm.requests[2] as ChatRequest;
    expect(JSON.stringify(third.messages.at(-1))).toContain('rm -rf is not allowed');

    const events = eventsOf(join(home.path, 'conversations'));
    const kinds = (kind: string) => events.filter((event) => event.kind === kind);
    const user = kinds('MessageEvent').find((event) => event.source === 'user') as { activated_skills?: string[] };
    expect(user.activated_skills).toEqual(['release']);
    const mcpObservation = kinds('ObservationEvent').find((event) => event.tool_name === 'shout') as {
      observation: { kind: string; is_error: boolean; content: { text?: string }[] };
    };
    expect(mcpObservation.observation.kind).toBe('MCPToolObservation');
    expect(mcpObservation.observation.is_error).toBe(false);
    expect(JSON.stringify(mcpObservation.observation.content)).toContain('AURORA');
    const rejection = kinds('UserRejectObservation')[0] as { rejection_source: string; tool_name: string };
    expect(rejection).toMatchObject({ rejection_source: 'hook', tool_name: 'terminal' });
    const hookRuns = kinds('HookExecutionEvent') as { hook_event_type: string; blocked: boolean }[];
    expect(hookRuns.some((run) => run.hook_event_type === 'PreToolUse' && run.blocked)).toBe(true);
    // The refused command never ran: nothing in the log is a terminal observation.
    expect(kinds('ObservationEvent').filter((event) => event.tool_name === 'terminal')).toEqual([]);
    workspace.remove();
  });
});
