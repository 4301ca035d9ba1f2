// A conversation lends its agent one step context for as long as nothing the context captured changes (the signal,
// the tools the client and the roster add, whether the agent sends its own prompt): building one per step made ~40
// closures of young garbage at every step. Everything else it gives is read when used, so reusing it changes nothing
// the agent or a tool sees.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StepContext } from '../src/agent/step-context.js';
import { Agent, Conversation, createClientTool, createOfflineLLM, defineTool, type Tool } from '../src/index.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** An agent that remembers the context of every step it is given. */
class RecordingAgent extends Agent {
  readonly contexts: StepContext[] = [];
  override async step(context: StepContext): Promise<void> {
    this.contexts.push(context);
    await super.step(context);
  }
}

const echo = defineTool({
  name: 'echo',
  description: 'Returns its text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }, context) => ({ content: `${text} in ${context.conversationId}` }),
});

function colorTool(name: string): Tool {
  return createClientTool({ name, description: `Asks the user for ${name}` });
}

async function conversationOf(steps: number, clientTools: () => readonly Tool[]) {
  const dir = await mkdtemp(join(tmpdir(), 'x-step-context-'));
  dirs.push(dir);
  const agent = new RecordingAgent({
    llm: createOfflineLLM({
      script: (_request, turn) =>
        turn >= steps
          ? { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }
          : { toolCalls: [{ name: 'echo', arguments: { text: `step ${turn}` } }] },
    }),
    tools: [echo],
  });
  const conversation = await Conversation.create({
    agent,
    workspace: dir,
    persistenceDir: dir,
    store: createMemoryFileStore(),
    clientTools,
  });
  return { agent, conversation };
}

describe('step context reuse', () => {
  it('lends one context to every step while nothing it captured changes, and still asks for the client tools each step', async () => {
    let asked = 0;
    const { agent, conversation } = await conversationOf(5, () => {
      asked += 1;
      return [];
    });
    await conversation.sendMessage('go');
    const result = await conversation.run();
    expect(result.status).toBe('finished');
    // Five tool steps, then the finish step.
    expect(agent.contexts.length).toBeGreaterThanOrEqual(6);
    expect(new Set(agent.contexts).size).toBe(1);
    expect(asked).toBeGreaterThanOrEqual(agent.contexts.length);
    const observations = [];
    for await (const event of conversation.events())
      if (event.kind === 'ObservationEvent' && event.tool_name === 'echo') observations.push(event);
    expect(observations).toHaveLength(5);
    expect(JSON.stringify(observations.at(-1))).toContain(`step 4 in ${conversation.id}`);
    await conversation.close();
  });

  it('builds a new context when the client tools change, carrying the new ones', async () => {
    const first = [colorTool('pick_color')];
    const second = [colorTool('pick_size')];
    let tools: readonly Tool[] = first;
    const { agent, conversation } = await conversationOf(4, () => tools);
    const seen: string[][] = [];
    const stop = conversation.subscribe((event) => {
      if (event.kind !== 'ObservationEvent') return;
      seen.push((agent.contexts.at(-1)?.conversationTools ?? []).map((tool) => tool.name));
      // A new array with the same tools is no change; other tools are.
      tools = seen.length === 1 ? [...first] : second;
    });
    await conversation.sendMessage('go');
    await conversation.run();
    stop();
    const distinct = [...new Set(agent.contexts)];
    expect(distinct).toHaveLength(2);
    expect(distinct[0]?.conversationTools).toEqual(first);
    expect(distinct[1]?.conversationTools).toEqual(second);
    expect(seen[0]).toEqual(['pick_color']);
    await conversation.close();
  });

  it('builds a new context for a run with another signal', async () => {
    const { agent, conversation } = await conversationOf(1, () => []);
    await conversation.sendMessage('go');
    await conversation.run({ signal: new AbortController().signal });
    const firstRun = new Set(agent.contexts);
    const before = agent.contexts.length;
    await conversation.sendMessage('again');
    await conversation.run({ signal: new AbortController().signal });
    const secondRun = new Set(agent.contexts.slice(before));
    expect(firstRun.size).toBe(1);
    expect(secondRun.size).toBe(1);
    for (const context of secondRun) expect(firstRun.has(context)).toBe(false);
    await conversation.close();
  });
});
