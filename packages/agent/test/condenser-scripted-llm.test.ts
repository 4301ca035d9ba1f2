import { createEvent, type LLMConvertibleEvent, View } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { isCondensation } from '../src/condenser/condenser.js';
import { LLMSummarizingCondenser } from '../src/condenser/llm-summarizing-condenser.js';
import { createOpenAILLM } from '../src/llm/openai-llm.js';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '../src/testing/index.js';

let server: ScriptedLLMServer | undefined;

async function serve(script: ScriptedReply[]): Promise<ScriptedLLMServer> {
  server = await startScriptedLLMServer(script);
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function conversation(count: number): LLMConvertibleEvent[] {
  return Array.from({ length: count }, (_, index) =>
    createEvent('MessageEvent', {
      source: index % 2 === 0 ? 'user' : 'agent',
      llm_message: { role: index % 2 === 0 ? 'user' : 'assistant', content: `turn ${index}` },
    }),
  );
}

/** The single user message of a summarizing request as the server received it. */
function promptOf(body: Record<string, unknown>): string {
  const messages = body.messages as { role: string; content: unknown }[];
  expect(messages).toHaveLength(1);
  expect(messages[0]!.role).toBe('user');
  // The Chat Completions rendering sends list content: one text part.
  return (messages[0]!.content as { type: string; text: string }[]).map((part) => part.text).join('');
}

describe('LLMSummarizingCondenser with createOpenAILLM over HTTP', () => {
  it('summarizes the forgotten range through a real Chat Completions call', async () => {
    const { baseURL, requests } = await serve([{ content: 'USER_CONTEXT: a long chat' }]);
    const llm = createOpenAILLM({ model: 'summarizer', baseURL, apiKey: 'sk-test', maxRetries: 0 });
    const events = conversation(25);
    const view = View.fromEvents(events);
    view.append(createEvent('CondensationRequest', {}));

    const result = await new LLMSummarizingCondenser({ llm, maxSize: 20 }).condense(view, { llm });
    if (!isCondensation(result)) throw new Error('expected a Condensation');
    expect(result.summary).toBe('USER_CONTEXT: a long chat');
    expect(result.llm_response_id).toBe('chatcmpl-1');
    expect(result.forgotten_event_ids).toEqual(events.slice(2, 18).map((event) => event.id));
    expect(requests).toHaveLength(1);
    expect(requests[0]).not.toHaveProperty('tools');
    const prompt = promptOf(requests[0]!);
    expect(prompt).toContain('<EVENT>\nMessageEvent (user) user:\nturn 2\n</EVENT>');
    expect(prompt).not.toContain('turn 18\n');

    view.append(result);
    expect(view.events.map((event) => event.kind)).toEqual([
      'MessageEvent',
      'MessageEvent',
      'CondensationSummaryEvent',
      ...Array(7).fill('MessageEvent'),
    ]);
  });

  it('falls back to a hard context reset when the summarizer overflows its own context', async () => {
    const { baseURL, requests } = await serve([{ contextOverflow: true }, { content: 'everything, briefly' }]);
    const llm = createOpenAILLM({ model: 'summarizer', baseURL, apiKey: 'sk-test', maxRetries: 0 });
    const events = conversation(25);
    const view = View.fromEvents(events);
    view.append(createEvent('CondensationRequest', {}));

    const result = await new LLMSummarizingCondenser({ llm, maxSize: 20 }).condense(view);
    if (!isCondensation(result)) throw new Error('expected a Condensation');
    expect(requests).toHaveLength(2);
    expect(result.summary).toBe('everything, briefly');
    expect(result.summary_offset).toBe(0);
    expect(result.forgotten_event_ids).toEqual(events.map((event) => event.id));
    expect(promptOf(requests[1]!)).toContain('turn 0\n');
    expect(promptOf(requests[1]!)).toContain('turn 24\n');
  });
});
