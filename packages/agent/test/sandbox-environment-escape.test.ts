// The server's own environment against every entry point that starts a process (the terminal, a hook, an MCP
// stdio server), with real bubblewrap: this process plays a server whose environment holds a credential and the
// variables that change what a program does as it starts (LD_LIBRARY_PATH, NODE_OPTIONS, BASH_ENV, ENV,
// PROMPT_COMMAND, an exported function). None may reach a process the agent runs, inside the sandbox or on the
// host side of it; the minimal environment of each entry point, and what the caller gives explicitly, does.
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHookConfig } from '../src/hooks/hook-config.js';
import { runHook } from '../src/hooks/run-hook.js';
import { fixtureReadablePaths, stdioServer } from '../src/mcp/__fixtures__/servers.js';
import { MCP_ACTION_KIND } from '../src/mcp/mcp-tool.js';
import { McpToolset } from '../src/mcp/mcp-toolset.js';
import { createTerminalTool } from '../src/tools/terminal-tool.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

const CREDENTIAL = `credential-${randomBytes(6).toString('hex')}`;
let layout: ServerLayout;
let marker: string;
const saved: Record<string, string | undefined> = {};

/** What a server's environment could hold; each would act on a shell or node started with it. */
function hostileVariables(): Record<string, string> {
  const script = join(layout.dataDir, 'startup.sh');
  writeFileSync(script, `echo leaked >> ${marker}\n`);
  return {
    X_SERVER_SESSION_API_KEY: CREDENTIAL,
    LD_LIBRARY_PATH: `/x-leak-${CREDENTIAL}`,
    NODE_OPTIONS: `--title=x-leak-${CREDENTIAL}`,
    BASH_ENV: script,
    ENV: script,
    PROMPT_COMMAND: `echo leaked >> ${marker}`,
    'BASH_FUNC_cat%%': `() { echo leaked >> ${marker}; }`,
  };
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  marker = join(layout.workspace, 'leaked');
  for (const [name, value] of Object.entries(hostileVariables())) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(layout.root, { recursive: true, force: true });
});

const PRINT_ENV = 'env; cat /proc/self/environ /proc/1/environ | tr "\\0" "\\n"';

function expectNoneOfTheServers(output: string): void {
  for (const name of Object.keys(hostileVariables())) expect(output, name).not.toContain(`${name}=`);
  expect(output).not.toContain(CREDENTIAL);
  expect(existsSync(marker)).toBe(false);
}

describe("the server's environment", () => {
  it('reaches no terminal command', async () => {
    const terminal = createTerminalTool();
    try {
      const observation = await terminal.execute(
        { command: `${PRINT_ENV}; echo done`, kind: 'TerminalAction' } as never,
        { workspace: layout.workspace, conversationId: 'environment-escape' },
      );
      const output = JSON.stringify(observation);
      expect(output).toContain('PATH=');
      expect(output).toContain('done');
      expectNoneOfTheServers(output);
    } finally {
      await terminal.closeAll();
    }
  });

  it('reaches no hook; what the caller adds does', async () => {
    const hook = parseHookConfig({ PreToolUse: [{ hooks: [{ command: PRINT_ENV, timeout: 60 }] }] }).pre_tool_use[0]
      ?.hooks[0];
    if (hook === undefined) throw new Error('no hook parsed');
    const result = await runHook(
      hook,
      {
        event_type: 'PreToolUse',
        tool_name: 'terminal',
        tool_input: {},
        tool_response: null,
        message: null,
        session_id: 's1',
        working_dir: layout.workspace,
        metadata: {},
      },
      { workspace: layout.workspace, env: { GIVEN_BY_CALLER: 'yes' } },
    );
    expect(result.stdout).toContain('OPENHANDS_EVENT_TYPE=PreToolUse');
    expect(result.stdout).toContain('GIVEN_BY_CALLER=yes');
    expectNoneOfTheServers(`${result.stdout}${result.stderr}`);
  });

  it('reaches no MCP stdio server; its config env does', async () => {
    const toolset = new McpToolset(
      {
        mcpServers: {
          test: stdioServer({ env: { GREETING: 'hi' }, sandbox: { readablePaths: fixtureReadablePaths } }),
        },
      },
      { workspace: layout.workspace, startTimeout: 120 },
    );
    try {
      const { tools, errors } = await toolset.start();
      expect(errors).toEqual([]);
      const env = tools.find((tool) => tool.name === 'env');
      if (env === undefined) throw new Error('no env tool');
      const observation = (await env.execute({ data: {}, kind: MCP_ACTION_KIND } as never, {
        workspace: layout.workspace,
      })) as Observation;
      const names = JSON.stringify(observation);
      expect(names).toContain('GREETING');
      for (const name of Object.keys(hostileVariables())) expect(names, name).not.toContain(`\\"${name}\\"`);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await toolset.close();
    }
  });
});
