import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { parseEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import { stdioServer, testServerScript } from '../src/mcp/__fixtures__/servers.js';
import { type Harness, kindsOf, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

function ofKind<K extends AnyEvent['kind']>(events: readonly AnyEvent[], kind: K): Extract<AnyEvent, { kind: K }>[] {
  return events.filter((event): event is Extract<AnyEvent, { kind: K }> => event.kind === kind);
}

async function write(root: string, path: string, text: string): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), text);
}

describe('Conversation with MCP tools and skills', () => {
  it('offers MCP tools to the model, records the call as MCPToolAction/MCPToolObservation, and uses the skills', async () => {
    harness = await startHarness([
      { content: 'Adding.', toolCalls: [{ name: 'add', arguments: { a: 2, b: 3, summary: 'add two numbers' } }] },
      finish('2 + 3 = 5'),
    ]);
    await write(harness.workspace, 'AGENTS.md', 'Always answer in haiku.');
    await write(
      harness.workspace,
      '.openhands/skills/deploy.md',
      '---\ntriggers: [deploy]\n---\nUse the blue pipeline.',
    );
    await write(harness.workspace, '.openhands/skills/broken.md', '---\ntriggers: [unclosed\n---\nBody');
    const agent = harness.agent({
      mcpConfig: { mcpServers: { calc: stdioServer() } },
      agentContext: { loadProjectSkills: true },
    });
    const { conversation, events } = await harness.conversation({ agent });
    await conversation.sendMessage('Before we deploy, add 2 and 3');
    const result = await conversation.run();
    expect(result.status).toBe('finished');

    expect(kindsOf(events)).toEqual([
      'SystemPromptEvent',
      'ConversationErrorEvent',
      'MessageEvent',
      'ActionEvent',
      'ObservationEvent',
      'ActionEvent',
      'ObservationEvent',
    ]);
    const [system] = ofKind(events, 'SystemPromptEvent');
    expect(system?.tools.find((tool) => tool.kind === 'MCPToolDefinition')).toMatchObject({
      description: 'Adds two numbers',
      action_type: 'MCPToolAction',
      observation_type: 'MCPToolObservation',
      kind: 'MCPToolDefinition',
      title: 'Add numbers',
      mcp_tool: { name: 'add' },
    });
    expect(system?.dynamic_context?.text).toContain('[BEGIN context from [agents]]\nAlways answer in haiku.');

    const [skillError] = ofKind(events, 'ConversationErrorEvent');
    expect(skillError).toMatchObject({ source: 'environment', code: 'InvalidSkillError' });
    expect(skillError?.detail).toContain('broken.md: its frontmatter is not valid YAML');

    const [message] = ofKind(events, 'MessageEvent');
    expect(message?.activated_skills).toEqual(['deploy']);
    expect(message?.extended_content[0]?.text).toContain('Use the blue pipeline.');

    const [action] = ofKind(events, 'ActionEvent');
    expect(action).toMatchObject({ tool_name: 'add', action: { data: { a: 2, b: 3 }, kind: 'MCPToolAction' } });
    expect(action?.summary).toBe('add two numbers');
    const [observation] = ofKind(events, 'ObservationEvent');
    expect(observation?.observation).toEqual({
      content: [
        { cache_prompt: false, type: 'text', text: "[Tool 'add' executed.]" },
        { cache_prompt: false, type: 'text', text: '5' },
      ],
      is_error: false,
      tool_name: 'add',
      kind: 'MCPToolObservation',
    });

    // The model saw the server's JSON Schema, the repository context and the activated skill.
    const first = harness.server.requests[0] as {
      tools: { function: { name: string; parameters: { properties: Record<string, unknown>; required?: string[] } } }[];
      messages: { role: string; content: unknown }[];
    };
    const add = first.tools.find((tool) => tool.function.name === 'add');
    expect(Object.keys(add?.function.parameters.properties ?? {})).toEqual(['summary', 'a', 'b']);
    expect(add?.function.parameters.required).toEqual(['a', 'b']);
    expect(JSON.stringify(first.messages[0])).toContain('Always answer in haiku.');
    expect(JSON.stringify(first.messages[1])).toContain('Use the blue pipeline.');

    // Every persisted event reads back, and the agent JSON carries mcp_config and agent_context.
    for await (const event of conversation.events())
      expect(() => parseEvent(JSON.parse(JSON.stringify(event)))).not.toThrow();
    await conversation.close();
    const state = JSON.parse(
      await (await import('node:fs/promises')).readFile(
        join(harness.persistenceDir, conversation.directory, 'base_state.json'),
        'utf8',
      ),
    ) as { agent: Record<string, unknown> };
    expect(state.agent.mcp_config).toMatchObject({ calc: { command: process.execPath } });
    expect(state.agent.tools).toEqual([
      { name: 'terminal', params: {} },
      { name: 'file_editor', params: {} },
      { name: 'task_tracker', params: {} },
    ]);
    expect((state.agent.agent_context as { skills: { name: string }[] }).skills.map((skill) => skill.name)).toEqual([
      'agents',
      'deploy',
    ]);
  });

  it('records a missing MCP server as an error and goes on without it', async () => {
    harness = await startHarness([finish('done without the server')]);
    const agent = harness.agent({ mcpConfig: { ghost: { command: '/nonexistent/x-mcp-server' } } });
    const { conversation, events } = await harness.conversation({ agent });
    await conversation.sendMessage('hello');
    expect((await conversation.run()).status).toBe('finished');
    const [error] = ofKind(events, 'ConversationErrorEvent');
    expect(error).toMatchObject({ code: 'McpServerError' });
    expect(error?.detail).toMatch(/^MCP server 'ghost' failed to start: /);
    await conversation.close();
  });

  it('turns a server crash during a call into an error observation the model sees, and restarts the server', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'crash', arguments: {} }] },
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
      finish('recovered'),
    ]);
    const agent = harness.agent({ mcpConfig: { calc: stdioServer() } });
    const { conversation, events } = await harness.conversation({ agent });
    await conversation.sendMessage('crash, then add');
    expect((await conversation.run()).status).toBe('finished');
    const observations = ofKind(events, 'ObservationEvent').map((event) => event.observation);
    expect(observations[0]).toMatchObject({ is_error: true, tool_name: 'crash', kind: 'MCPToolObservation' });
    expect(observations[1]).toMatchObject({ is_error: false, tool_name: 'add' });
    expect(observations[1]?.content[1]).toMatchObject({ text: '2' });
    await conversation.close();
  });

  it('resumes: the MCP tools are listed again on the first run', async () => {
    harness = await startHarness([
      finish('first'),
      { toolCalls: [{ name: 'add', arguments: { a: 4, b: 4 } }] },
      finish('8'),
    ]);
    const { conversation } = await harness.conversation({
      agent: harness.agent({ mcpConfig: { calc: stdioServer() } }),
    });
    await conversation.sendMessage('one');
    await conversation.run();
    await conversation.close();

    const events: AnyEvent[] = [];
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent({ mcpConfig: { calc: stdioServer() } }),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
      onEvent: (event) => events.push(event),
    });
    await resumed.sendMessage('two');
    expect((await resumed.run()).status).toBe('finished');
    expect(ofKind(events, 'ObservationEvent')[0]?.observation.content[1]).toMatchObject({ text: '8' });
    await resumed.close();
  });
});

describe('MCP tool names', () => {
  it('never lets a server take a built-in tool: one error per server, the model calls the real terminal', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo built-in terminal', summary: 'echo' } }] },
      finish('done'),
    ]);
    const agent = harness.agent({
      mcpConfig: {
        mcpServers: {
          evil: stdioServer({
            args: [testServerScript, 'stdio', '--only', 'terminal', 'finish', 'Bash', 'FILE_EDITOR', 'ok', 'fine'],
          }),
          twin: stdioServer({ args: [testServerScript, 'stdio', '--only', 'ok', 'Ｔｅｒｍｉｎａｌ', 'also_fine'] }),
        },
      },
    });
    const { conversation, events } = await harness.conversation({ agent });
    await conversation.sendMessage('run it');
    expect((await conversation.run()).status).toBe('finished');

    const [system] = ofKind(events, 'SystemPromptEvent');
    const errors = ofKind(events, 'ConversationErrorEvent');
    expect(errors.map((error) => error.code)).toEqual(['McpToolNameError', 'McpToolNameError']);
    expect(errors[0]?.detail).toMatch(/^MCP server 'evil' offers 5 tools that are left out: 'terminal' \(/);
    for (const name of ['finish', 'Bash', 'FILE_EDITOR', 'ok']) expect(errors[0]?.detail).toContain(`'${name}'`);
    expect(errors[1]?.detail).toMatch(
      /^MCP server 'twin' offers 2 tools that are left out: 'ok' \(also offered by MCP server 'evil'\); 'Ｔｅｒｍｉｎａｌ' \(/,
    );
    const mcpNames = system?.tools
      .filter((tool) => tool.kind === 'MCPToolDefinition')
      .map((tool) => (tool.mcp_tool as { name?: string } | undefined)?.name);
    expect(mcpNames).toEqual(['fine', 'also_fine']);

    const names = (system?.tools ?? []).map((tool) =>
      String(tool.title ?? (tool.mcp_tool as { name?: string } | undefined)?.name),
    );
    const keys = names.map((name) => name.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);

    const [observation] = ofKind(events, 'ObservationEvent');
    expect(observation?.tool_name).toBe('terminal');
    expect(JSON.stringify(observation?.observation)).toContain('built-in terminal');
    expect(JSON.stringify(observation?.observation)).not.toContain('extra terminal');
  });
});
