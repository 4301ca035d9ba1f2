import { describe, expect, it } from 'vitest';
import {
  completedResponse,
  endedResponse,
  outputMessageOf,
  startedResponse,
  usageBetween,
  usageTotalsOf,
} from './response-object.js';
import { answerEvents, createEventFramer, failedEvent, startEvents } from './responses-stream.js';

const echo = {
  model: 'm',
  instructions: null,
  metadata: {},
  previous_response_id: null,
  store: true,
  parallel_tool_calls: true,
};
const usage = usageTotalsOf(undefined);

describe('the events of a response', () => {
  it('open with the response in progress, and carry the answer in OpenAI order on one item and part', () => {
    const started = startedResponse(echo, () => 1_700_000_000_000);
    expect(startEvents(started).map((event) => [event.type, (event.response as { status: string }).status])).toEqual([
      ['response.created', 'in_progress'],
      ['response.in_progress', 'in_progress'],
    ]);
    const completed = completedResponse(started, { message: outputMessageOf('the answer'), usage });
    const events = answerEvents(completed);
    expect(events.map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const itemId = completed.output[0]?.id;
    expect(events.slice(1, 5).every((event) => event.item_id === itemId && event.content_index === 0)).toBe(true);
    // The one item is at index 0 of the output: the SDK's stream builds its final response by these indexes.
    expect(events.slice(0, 6).map((event) => event.output_index)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(events[0]).toMatchObject({ item: { id: itemId, status: 'in_progress', content: [] } });
    expect(events[2]).toMatchObject({ delta: 'the answer' });
    expect(events[3]).toMatchObject({ text: 'the answer' });
    expect(events[5]).toMatchObject({ item: { status: 'completed', content: [{ text: 'the answer' }] } });
    expect(completed).toMatchObject({ status: 'completed', output_text: 'the answer', created_at: 1_700_000_000 });
  });

  it('end a failed run with response.failed and its error', () => {
    const ended = endedResponse(startedResponse(echo), { status: 'failed', code: 'agent_run_failed', message: 'no' });
    expect(failedEvent(ended)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'agent_run_failed', message: 'no' }, output: [] },
    });
  });

  it('are framed as named server-sent events numbered from 0, one framer per stream', () => {
    const frame = createEventFramer();
    expect([frame({ type: 'a' }), frame({ type: 'b', x: 1 })]).toEqual([
      'event: a\ndata: {"type":"a","sequence_number":0}\n\n',
      'event: b\ndata: {"type":"b","x":1,"sequence_number":1}\n\n',
    ]);
    expect(createEventFramer()({ type: 'c' })).toContain('"sequence_number":0');
  });
});

describe('usage', () => {
  it("sums a conversation's models and counts one run as the difference", () => {
    const model = (prompt: number, completion: number, cached: number, reasoning: number) => ({
      accumulated_token_usage: {
        prompt_tokens: prompt,
        completion_tokens: completion,
        cache_read_tokens: cached,
        reasoning_tokens: reasoning,
      },
    });
    const before = usageTotalsOf({ usage_to_metrics: { a: model(10, 5, 2, 1) } });
    const after = usageTotalsOf({ usage_to_metrics: { a: model(30, 9, 6, 1), b: model(4, 1, 0, 3) } });
    expect(after).toEqual({
      input_tokens: 34,
      input_tokens_details: { cached_tokens: 6 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 4 },
      total_tokens: 44,
    });
    expect(usageBetween(before, after)).toEqual({
      input_tokens: 24,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 29,
    });
  });
});
