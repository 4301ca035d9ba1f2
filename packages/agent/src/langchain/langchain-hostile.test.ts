// What a LangChain user hands the import that does not fit LangChain's types (JSON from a file, a message built by
// hand, a stored history from an older version): each is refused with a ChatImportError naming the message and the
// field, never a TypeError from deep in the import.
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { ChatImportError } from '@x/events';
import { describe, expect, it } from 'vitest';
import { fromLangChainMessages, fromLangChainStoredMessages, type LangChainMessage } from './index.js';

const refusal = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('fromLangChainMessages refuses what is not a LangChain message by name', () => {
  it.each([
    ['not an array', undefined, 0, '(messages)'],
    ['a null message', [null], 0, '(message)'],
    ['content that is a number', [{ type: 'human', content: 42 }], 0, 'content'],
    ['a null content block', [new HumanMessage('hi'), { type: 'ai', content: [null] }], 1, 'content[0]'],
    ['a text block without its text', [{ type: 'human', content: [{ type: 'text' }] }], 0, 'content[0].text'],
    ['tool_calls that are not an array', [{ type: 'ai', content: '', tool_calls: 'x' }], 0, 'tool_calls'],
    [
      'a call without a name',
      [{ type: 'ai', content: '', tool_calls: [{ id: 'a', args: {} }] }],
      0,
      'tool_calls[0].name',
    ],
    [
      'a call whose args are an array',
      [{ type: 'ai', content: '', tool_calls: [{ id: 'a', name: 'x', args: [1] }] }],
      0,
      'tool_calls[0].args',
    ],
  ])('%s', (_name, messages, index, path) => {
    const error = refusal(() => fromLangChainMessages(messages as unknown as LangChainMessage[]));
    expect(ChatImportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ index, path });
  });

  it('refuses args JSON cannot write (a BigInt, a cycle), naming the call', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const args of [{ n: 1n }, cyclic]) {
      const message = new AIMessage({ content: '', tool_calls: [{ id: 'a', name: 'x', args }] });
      const error = refusal(() => fromLangChainMessages([new HumanMessage('hi'), message]));
      expect(ChatImportError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ index: 1, path: 'tool_calls[0].args' });
    }
  });
});

describe('fromLangChainStoredMessages refuses a stored record it cannot read by its index', () => {
  it.each([
    ['not an array', {}, 0, '(messages)'],
    ['a null record', [{ type: 'human', data: { content: 'hi' } }, null], 1, '(message)'],
    ['a type LangChain does not know', [{ type: 'weird', data: { content: 'x' } }], 0, 'type'],
  ])('%s', async (_name, stored, index, path) => {
    const error = await fromLangChainStoredMessages(stored as never).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(ChatImportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ index, path });
  });
});
