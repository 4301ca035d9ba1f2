import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ActionEvent, type AnyEvent, eventToJson, type ObservationEvent } from '@x/events';
import { type FieldSets, fieldSetProblems, payloadProblems } from '@x/events/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, Conversation, createOpenAILLM, defaultTools, LLMSummarizingCondenser } from '../src/index.js';
import { type ScriptedLLMServer, type ScriptedRequestBody, startScriptedLLMServer } from '../src/testing/index.js';

const sets: FieldSets = JSON.parse(
  readFileSync(new URL('../../events/test/__fixtures__/reference-field-sets.json', import.meta.url), 'utf8'),
);

const SECRET_DETAIL = 'AZ-4471';
const SUMMARY = 'USER_CONTEXT: the user wants the launch code from notes.txt. The agent printed it (value not kept).';

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
}

function textOf(message: WireMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return message.content.map((part: { text?: string }) => part.text ?? '').join('');
}

/**
 * A model that behaves as a careful agent would: prints the detail, keeps working (so the condenser forgets the
 * print), notices the summary lacks the value, recalls it and answers with what the recall returned.
 */
function model(body: ScriptedRequestBody, index: number) {
  const messages = body.messages as WireMessage[];
  if (body.tools === undefined) return { content: SUMMARY };
  const last = messages.at(-1)!;
  const everything = messages.map(textOf).join('\n');
  if (last.role === 'tool' && textOf(last).includes('<EVENT index=')) {
    const found = /AZ-\d+/.exec(textOf(last))?.[0] ?? 'not found';
    return { toolCalls: [{ name: 'finish', arguments: { message: `The launch code is ${found}.` } }] };
  }
  if (everything.includes('USER_CONTEXT')) {
    return { toolCalls: [{ name: 'recall', arguments: { query: 'launch code' } }] };
  }
  const turns = messages.filter((message) => message.role === 'assistant').length;
  if (turns === 0) return { toolCalls: [{ name: 'terminal', arguments: { command: 'cat notes.txt' } }] };
  return { toolCalls: [{ name: 'think', arguments: { thought: `checking step ${index}` } }] };
}

let server: ScriptedLLMServer | undefined;
const directories: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true, maxRetries: 5 });
});

describe('recall in a condensed conversation', () => {
  it('re-reads a detail only the forgotten events hold and answers with it; the recall is in the log', async () => {
    server = await startScriptedLLMServer(model);
    const workspace = await mkdtemp(join(tmpdir(), 'x-recall-ws-'));
    const persistenceDir = await mkdtemp(join(tmpdir(), 'x-recall-data-'));
    directories.push(workspace, persistenceDir);
    await writeFile(join(workspace, 'notes.txt'), `launch code: ${SECRET_DETAIL}\n`);
    const llm = createOpenAILLM({ model: 'scripted', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 });
    const agent = new Agent({
      llm,
      tools: defaultTools(),
      condenser: new LLMSummarizingCondenser({ llm, maxSize: 8 }),
    });
    expect(agent.tools.map((tool) => tool.name)).toContain('recall');

    const events: AnyEvent[] = [];
    const conversation = await Conversation.create({
      agent,
      workspace,
      persistenceDir,
      durability: 'none',
      onEvent: (event) => events.push(event),
    });
    await conversation.sendMessage('What is the launch code in notes.txt? Take your time.');
    expect((await conversation.run()).status).toBe('finished');
    await conversation.close();

    // The detail was printed, then condensed away: the request that led to the recall did not hold it.
    const condensation = events.find((event) => event.kind === 'Condensation');
    expect(condensation).toBeDefined();
    const recallAction = events.find(
      (event): event is ActionEvent => event.kind === 'ActionEvent' && event.tool_name === 'recall',
    )!;
    expect(recallAction.action).toEqual({ data: { query: 'launch code' }, kind: 'MCPToolAction' });
    const agentRequests = server.requests.filter((body) => body.tools !== undefined);
    const beforeRecall = agentRequests.at(-2)!;
    expect(JSON.stringify(beforeRecall.messages)).not.toContain(SECRET_DETAIL);

    const recallObservation = events.find(
      (event): event is ObservationEvent => event.kind === 'ObservationEvent' && event.tool_name === 'recall',
    )!;
    expect(recallObservation.observation).toMatchObject({
      is_error: false,
      tool_name: 'recall',
      kind: 'MCPToolObservation',
    });
    const recalled = (recallObservation.observation.content[0] as { text: string }).text;
    expect(recalled).toContain(`launch code: ${SECRET_DETAIL}`);
    expect(recalled).toContain('forgotten');

    const finish = events.findLast(
      (event): event is ActionEvent => event.kind === 'ActionEvent' && event.tool_name === 'finish',
    )!;
    expect(finish.action).toEqual({ message: `The launch code is ${SECRET_DETAIL}.`, kind: 'FinishAction' });

    // What was written loads in the reference: the recall events carry only the reference's MCP field sets.
    for (const event of [recallAction, recallObservation]) {
      expect(fieldSetProblems(sets, eventToJson(event) as Record<string, unknown>)).toEqual([]);
    }
    expect(payloadProblems(sets, JSON.parse(JSON.stringify(recallAction.action)))).toEqual([]);
    expect(payloadProblems(sets, JSON.parse(JSON.stringify(recallObservation.observation)))).toEqual([]);
    const systemPrompt = events.find((event) => event.kind === 'SystemPromptEvent')!;
    const definition = (systemPrompt as { tools: Record<string, unknown>[] }).tools.find(
      (tool) => (tool.mcp_tool as { name?: string } | undefined)?.name === 'recall',
    );
    expect(definition).toMatchObject({ action_type: 'MCPToolAction', kind: 'MCPToolDefinition' });

    // base_state.json lists no TS-only tool for the reference to instantiate.
    const base = JSON.parse(await readFile(join(conversation.location, 'base_state.json'), 'utf8')) as {
      agent: { tools: { name: string }[] };
    };
    expect(base.agent.tools.map((tool) => tool.name)).not.toContain('recall');
  });
});
