import type { Message } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { LLMMalformedToolCallError } from '../../llm/errors/llm-malformed-tool-call-error.js';
import { startGeminiServer, type WireReply, type WireServer } from '../../testing/wire/index.js';
import { createGeminiLLM } from './gemini-llm.js';

/** A tool call Gemini could not deliver (`MALFORMED_FUNCTION_CALL`...) fails the call with a typed error. */

let server: WireServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const question: Message = {
  role: 'user',
  content: [{ cache_prompt: false, type: 'text', text: 'Finish.' }],
  thinking_blocks: [],
};

async function failureOf(reply: WireReply, stream: boolean): Promise<unknown> {
  server = await startGeminiServer([reply]);
  const llm = createGeminiLLM({
    model: 'gemini/gemini-2.5-flash',
    baseURL: server.baseURL,
    apiKey: 'gm',
    maxRetries: 0,
  });
  return llm.complete({ messages: [question], ...(stream && { onDelta: () => undefined }) }).then(
    (response) => ({ resolved: response }),
    (error: unknown) => error,
  );
}

describe.each([false, true])('a Gemini tool call that failed (streaming: %s)', (stream) => {
  it.each(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS'])(
    'is a typed error for %s, whose response holds the attempt as a call with unparseable arguments',
    async (reason) => {
      const failure = await failureOf({ text: 'Finishing.', stopReason: reason, usage: { input: 40 } }, stream);
      expect(failure).toBeInstanceOf(LLMMalformedToolCallError);
      const error = failure as LLMMalformedToolCallError;
      expect(error).toMatchObject({ code: 'llm_malformed_tool_call', providerCode: reason });
      expect(error.message).toBe(
        `Model 'gemini/gemini-2.5-flash' attempted a tool call Gemini could not deliver (finishReason ${reason})`,
      );
      expect(error.response).toMatchObject({
        id: 'gemini-resp-1',
        finishReason: 'tool_calls',
        providerFinishReason: reason,
      });
      expect(error.response.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'Finishing.' }]);
      expect(error.response.message.tool_calls).toEqual([
        {
          id: 'gcall_gemini-resp-1_0',
          name: reason.toLowerCase(),
          arguments: `${reason}: Gemini could not read the function call the model made`,
          origin: 'completion',
        },
      ]);
      expect(() => JSON.parse(error.response.message.tool_calls?.[0]?.arguments ?? '')).toThrow(SyntaxError);
      expect(error.response.usage?.prompt_tokens).toBe(40);
    },
  );

  it('keeps a reply that holds a delivered call a plain response, whatever the finish reason', async () => {
    const outcome = await failureOf(
      { toolCalls: [{ name: 'finish', arguments: { message: 'x' } }], stopReason: 'TOO_MANY_TOOL_CALLS' },
      stream,
    );
    expect(outcome).toMatchObject({
      resolved: { finishReason: 'tool_calls', message: { tool_calls: [{ name: 'finish' }] } },
    });
  });

  it('keeps a plain stop without a call a plain response', async () => {
    const outcome = await failureOf({ text: 'Done.', stopReason: 'STOP' }, stream);
    expect(outcome).toMatchObject({ resolved: { finishReason: 'stop', providerFinishReason: 'STOP' } });
  });
});
