import { describe, expect, it } from 'vitest';
import { answerChunks, chatCompletionOf } from './chat-completion.js';
import { chatTurnOf } from './chat-request.js';
import { OpenAiGatewayError } from './openai-error.js';
import { usageTotalsOf } from './response-object.js';

describe('chatTurnOf', () => {
  it('takes the latest user message and joins system and developer text', () => {
    const turn = chatTurnOf({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'developer', content: [{ type: 'text', text: 'No tools.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'second' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } },
          ],
        },
      ],
    });
    expect(turn.system).toBe('Be brief.\n\nNo tools.');
    expect(turn.user).toEqual([
      { type: 'text', text: 'second', cache_prompt: false },
      { type: 'image', image_urls: ['data:image/png;base64,AA=='], cache_prompt: false },
    ]);
  });

  it('refuses a chat with no user message, or an empty one, naming the field', () => {
    const none = () => chatTurnOf({ model: 'm', messages: [{ role: 'system', content: 'x' }] });
    expect(none).toThrow(OpenAiGatewayError);
    expect(none).toThrow('At least one user message');
    try {
      chatTurnOf({ model: 'm', messages: [{ role: 'user', content: '' }] });
    } catch (error) {
      expect((error as OpenAiGatewayError).param).toBe('messages[0].content');
    }
  });
});

describe('completion shapes', () => {
  const answer = {
    id: 'chatcmpl-1',
    created: 7,
    model: 'm',
    content: 'done',
    usage: usageTotalsOf({
      usage_to_metrics: {
        a: { accumulated_token_usage: { prompt_tokens: 3, completion_tokens: 2 } },
        b: { accumulated_token_usage: { prompt_tokens: 1, completion_tokens: 1 } },
      },
    }),
  };

  it("reports the run's usage in OpenAI's CompletionUsage fields", () => {
    expect(chatCompletionOf(answer).usage).toEqual({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
  });

  it('builds a chat.completion and its chunks with one id', () => {
    expect(chatCompletionOf(answer).choices[0].message.content).toBe('done');
    const chunks = answerChunks(answer, { includeUsage: true });
    expect(chunks.map((chunk) => [chunk.choices[0]?.delta, chunk.choices[0]?.finish_reason])).toEqual([
      [{ content: 'done' }, null],
      [{}, 'stop'],
      [undefined, undefined],
    ]);
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
    expect(answerChunks(answer, { includeUsage: false })).toHaveLength(2);
  });
});
