import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import type { ScriptedRequestBody } from '../src/testing/index.js';
import { type Harness, startHarness } from './support/harness.js';

/**
 * The three conversations the reference wrote (shared fixtures): x resumes each with the state and the view the
 * reference derived, continues it where it ended, and a second resume of what x wrote finds the same conversation
 * again: nothing lost, nothing doubled, no reference file changed.
 */
const FIXTURES = fileURLToPath(new URL('../../events/test/__fixtures__/openhands/', import.meta.url));
const CASES = ['01_simple_message_reply', '03_parallel_tool_calls', '06_condensation_summary_offset'];

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type ChatMessage = { role: string; content?: unknown; tool_calls?: { function: { arguments: string } }[] };

/** Tool-call arguments as parsed JSON: the reference writes them with Python's `json.dumps` spacing. */
function comparable(messages: readonly ChatMessage[]): unknown[] {
  return messages.map((message) => ({
    ...message,
    ...(message.tool_calls === undefined
      ? {}
      : {
          tool_calls: message.tool_calls.map((call) => ({
            ...call,
            function: { ...call.function, arguments: JSON.parse(call.function.arguments) },
          })),
        }),
  }));
}

const messagesOf = (body: ScriptedRequestBody | undefined) => (body?.messages ?? []) as ChatMessage[];

async function allEvents(conversation: Conversation): Promise<AnyEvent[]> {
  const events: AnyEvent[] = [];
  for await (const event of conversation.events()) events.push(event);
  return events;
}

async function eventFiles(dir: string): Promise<Map<string, string>> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  return new Map(
    await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const)),
  );
}

/** The fixture copied into the harness's persistence dir, as the reference left it; its expected.json. */
async function referenceDirectory(h: Harness, name: string) {
  const baseState = JSON.parse(await readFile(join(FIXTURES, name, 'base_state.json'), 'utf8'));
  const expected = JSON.parse(await readFile(join(FIXTURES, name, 'expected.json'), 'utf8'));
  const id = baseState.id as string;
  const dir = join(h.persistenceDir, id.replaceAll('-', ''));
  await cp(join(FIXTURES, name), dir, { recursive: true });
  return { id, dir, baseState, expected };
}

/** The reference's stats as x keeps them: the accumulated figures of each usage id, not the per-response lists. */
function accumulated(stats: { usage_to_metrics: Record<string, Record<string, unknown>> }) {
  const entries = Object.entries(stats.usage_to_metrics).map(([usageId, metrics]) => [
    usageId,
    {
      model_name: metrics.model_name,
      accumulated_cost: metrics.accumulated_cost,
      accumulated_token_usage: metrics.accumulated_token_usage,
    },
  ]);
  return { usage_to_metrics: Object.fromEntries(entries) };
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });

describe.each(CASES)('the reference conversation %s', (name) => {
  it('resumes with the state and view the reference derived, and the next step sends its messages', async () => {
    harness = await startHarness([{ content: 'Continued.' }]);
    const { id, dir, baseState, expected } = await referenceDirectory(harness, name);
    const before = await eventFiles(join(dir, 'events'));
    const conversation = await Conversation.resume(id, {
      agent: harness.agent(),
      persistenceDir: harness.persistenceDir,
    });
    expect(conversation.state.event_count).toBe(expected.event_count);
    expect(conversation.state.execution_status).toBe(expected.execution_status);
    expect(conversation.state.stats).toEqual(accumulated(baseState.stats));
    expect(conversation.leafEventId).toBe(expected.leaf_event_id);
    expect((await conversation.view()).events.map((event) => event.id)).toEqual(expected.view_event_ids);

    await conversation.sendMessage('And then?');
    expect((await conversation.run()).status).toBe('finished');
    expect(harness.server.requests).toHaveLength(1);
    expect(comparable(messagesOf(harness.server.requests[0]))).toEqual(
      comparable([...expected.messages, user('And then?')]),
    );
    // Appended after the reference's events, on its branch; its files are left as they were.
    const events = await allEvents(conversation);
    expect(events.slice(0, expected.event_count).map((event) => event.kind)).toEqual(expected.kinds);
    const message = events.find((event, index) => index >= expected.event_count && event.kind === 'MessageEvent');
    expect(message?.parent_id).toBe(expected.leaf_event_id);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    const after = await eventFiles(join(dir, 'events'));
    for (const [file, text] of before) expect(after.get(file)).toBe(text);
    await conversation.close();
  });

  it('resumed again after x continued it, holds the same state and sends each event once', async () => {
    harness = await startHarness([{ content: 'Continued.' }, { content: 'Once more.' }]);
    const h = harness;
    const { id, expected } = await referenceDirectory(h, name);
    const first = await Conversation.resume(id, { agent: h.agent(), persistenceDir: h.persistenceDir });
    await first.sendMessage('And then?');
    await first.run();
    const state = first.state;
    const view = (await first.view()).events.map((event) => event.id);
    const length = first.log.length;
    await first.close();

    const second = await Conversation.resume(id, { agent: h.agent(), persistenceDir: h.persistenceDir });
    expect(second.state).toEqual(state);
    expect(second.log.length).toBe(length);
    expect((await second.view()).events.map((event) => event.id)).toEqual(view);
    await second.sendMessage('Anything else?');
    expect((await second.run()).status).toBe('finished');
    const sent = messagesOf(h.server.requests[1]);
    expect(comparable(sent)).toEqual(
      comparable([
        ...expected.messages,
        user('And then?'),
        { role: 'assistant', content: [{ type: 'text', text: 'Continued.' }] },
        user('Anything else?'),
      ]),
    );
    const events = await allEvents(second);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    await second.close();
  });
});
