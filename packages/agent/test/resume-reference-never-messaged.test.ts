import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import { type Harness, kindsOf, startHarness } from './support/harness.js';

/**
 * A conversation the reference created and never messaged: its `ConversationState.create` writes base_state.json
 * and no event (the fixture is its output, from tooling/reference-oracle/gennew.py). The reference writes the
 * SystemPromptEvent at the first `send_message` or `run` (`Agent.init_state`, when none is in the log's first three
 * events); x, resuming such a directory, must do the same, so the log opens with the system prompt.
 */
const FIXTURE = fileURLToPath(new URL('./__fixtures__/reference-never-messaged/', import.meta.url));
const HEX = '7c0a3f525a1e4c4b9d0e3f6b2a1c8e90';
const ID = '7c0a3f52-5a1e-4c4b-9d0e-3f6b2a1c8e90';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function referenceDirectory(h: Harness): Promise<string> {
  const dir = join(h.persistenceDir, HEX);
  await cp(join(FIXTURE, HEX), dir, { recursive: true });
  return dir;
}

async function allEvents(conversation: Conversation): Promise<AnyEvent[]> {
  const events: AnyEvent[] = [];
  for await (const event of conversation.events()) events.push(event);
  return events;
}

/** The kinds of the event files in index order, as the reference lists them. */
async function fileKinds(dir: string): Promise<string[]> {
  const names = (await readdir(join(dir, 'events'))).filter((name) => name.endsWith('.json')).sort();
  const kinds = await Promise.all(
    names.map(async (name) => (JSON.parse(await readFile(join(dir, 'events', name), 'utf8')) as AnyEvent).kind),
  );
  return kinds.filter((kind) => kind !== 'ConversationStateUpdateEvent');
}

describe('a conversation the reference created but never messaged', () => {
  it('gets the system prompt before the first message, and the model gets it first', async () => {
    harness = await startHarness([{ content: 'Hello.' }]);
    const h = harness;
    const dir = await referenceDirectory(h);
    const agent = h.agent();
    const conversation = await Conversation.resume(ID, { agent, persistenceDir: h.persistenceDir });
    expect(conversation.state.event_count).toBe(0);
    await conversation.sendMessage('Hi');
    expect((await conversation.run()).status).toBe('finished');
    const events = await allEvents(conversation);
    expect(kindsOf(events)).toEqual(['SystemPromptEvent', 'MessageEvent', 'MessageEvent']);
    const prompt = events.find((event) => event.kind === 'SystemPromptEvent');
    const expected = agent.systemPromptEvent();
    expect(prompt?.kind === 'SystemPromptEvent' && prompt.system_prompt.text).toBe(expected.system_prompt.text);
    expect(prompt?.kind === 'SystemPromptEvent' && prompt.tools.map((tool) => tool.title)).toEqual(
      expected.tools.map((tool) => tool.title),
    );
    const message = events.find((event) => event.kind === 'MessageEvent');
    expect(message?.parent_id).toBe(prompt?.id);
    const [request] = h.server.requests;
    const messages = (request?.messages ?? []) as { role: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    await conversation.close();
    expect(await fileKinds(dir)).toEqual(['SystemPromptEvent', 'MessageEvent', 'MessageEvent']);
  });

  it('gets it before a run started without a message, once, and a later resume adds no second one', async () => {
    harness = await startHarness([{ content: 'Nothing to do.' }, { content: 'Done.' }]);
    const h = harness;
    const dir = await referenceDirectory(h);
    const first = await Conversation.resume(ID, { agent: h.agent(), persistenceDir: h.persistenceDir });
    await first.run();
    await first.close();
    expect(await fileKinds(dir)).toEqual(['SystemPromptEvent', 'MessageEvent']);
    const second = await Conversation.resume(ID, { agent: h.agent(), persistenceDir: h.persistenceDir });
    await second.sendMessage('Now?');
    await second.run();
    await second.close();
    expect(await fileKinds(dir)).toEqual(['SystemPromptEvent', 'MessageEvent', 'MessageEvent', 'MessageEvent']);
  });
});
