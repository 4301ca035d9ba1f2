import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LLMInvalidRecordingError } from './errors/llm-invalid-recording-error.js';
import { LLMScriptExhaustedError } from './errors/llm-script-exhausted-error.js';
import { createOfflineLLM } from './offline-llm.js';
import { recordedResponseSchema, recordingFromEvents } from './recording.js';

const fixtureDir = fileURLToPath(
  new URL('../../../events/test/__fixtures__/openhands/03_parallel_tool_calls/events', import.meta.url),
);

function fixtureEvents(): unknown[] {
  return readdirSync(fixtureDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(fixtureDir, name), 'utf8')) as unknown);
}

describe('recordingFromEvents', () => {
  it('groups parallel ActionEvents by response id, keeping ids, thought and every tool call', () => {
    const events = fixtureEvents();
    const recording = recordingFromEvents(events);
    expect(recording.map((response) => response.id)).toEqual([
      'chatcmpl-agQ6Ge6WG10qs0FTfqH6kxxGtYSBj',
      'chatcmpl-PnOO7YJlFpqYBedVFjJrCURrp2OiG',
    ]);
    const [parallel, final] = recording;
    expect(parallel?.message.role).toBe('assistant');
    expect(parallel?.message.content).toEqual([
      { cache_prompt: false, type: 'text', text: "I'll assess the three options in parallel." },
    ]);
    expect(parallel?.message.tool_calls?.map((call) => call.id)).toEqual([
      'call_Yd4V3rHfFIOl0BCO9GsImhSL',
      'call_va3uluraOyqkx0nPFXMlN8sn',
      'call_ge0QtS6Nwh4z5dhMthSCe1JI',
    ]);
    // The recorded arguments are replayed byte for byte, malformed JSON included.
    const finishEvent = events[8] as { tool_call: { arguments: string } };
    expect(final?.message.tool_calls?.[0]?.arguments).toBe(finishEvent.tool_call.arguments);
    expect(final?.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'DuckDB fits best.' }]);
    for (const response of recording) expect(recordedResponseSchema.safeParse(response).success).toBe(true);
  });

  it('replays deterministically through the offline model, then reports exhaustion', async () => {
    const llm = createOfflineLLM({ recording: recordingFromEvents(fixtureEvents()) });
    const request = { messages: [{ role: 'user' as const, content: 'Compare databases' }] };
    const first = await llm.complete(request);
    expect(first.id).toBe('chatcmpl-agQ6Ge6WG10qs0FTfqH6kxxGtYSBj');
    expect(first.finishReason).toBe('tool_calls');
    expect(first.message.tool_calls).toHaveLength(3);
    expect((await llm.complete(request)).message.tool_calls?.[0]?.name).toBe('finish');
    await expect(llm.complete(request)).rejects.toBeInstanceOf(LLMScriptExhaustedError);
  });

  it('turns an agent MessageEvent into a text reply and skips user messages', () => {
    const events = fixtureEvents();
    const userMessage = events[1] as Record<string, unknown>;
    const agentReply = {
      ...userMessage,
      id: 'b6f8a0c2-1111-4222-8333-944455556666',
      source: 'agent',
      llm_message: { role: 'assistant', content: [{ type: 'text', text: 'All done.' }], thinking_blocks: [] },
      llm_response_id: 'chatcmpl-final',
    };
    const recording = recordingFromEvents([userMessage, agentReply]);
    expect(recording).toEqual([
      {
        id: 'chatcmpl-final',
        message: {
          role: 'assistant',
          content: [{ cache_prompt: false, type: 'text', text: 'All done.' }],
          thinking_blocks: [],
        },
      },
    ]);
  });

  it('names the position of an event that does not parse', () => {
    const broken = { ...(fixtureEvents()[2] as Record<string, unknown>), llm_response_id: 42 };
    expect(() => recordingFromEvents([broken])).toThrow(LLMInvalidRecordingError);
    expect(() => recordingFromEvents([broken])).toThrow(/Event 0 of the recording/);
  });
});
