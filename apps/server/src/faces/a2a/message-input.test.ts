import { describe, expect, it } from 'vitest';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { A2aIncomingPart } from './a2a-requests.js';
import { A2aRpcError } from './a2a-rpc-error.js';
import { checkOutputModes, messageInput } from './message-input.js';

/** A message with no referenced tasks never reaches the manager. */
const noManager = {} as ConversationManager;
const input = (parts: A2aIncomingPart[]) =>
  messageInput(noManager, { messageId: 'm', parts, referenceTaskIds: [] } as never);
const refusal = async (parts: A2aIncomingPart[]) => {
  const error = await input(parts).catch((caught: unknown) => caught);
  if (!A2aRpcError.isInstance(error)) throw new Error(`not refused: ${String(error)}`);
  return { rpcCode: error.rpcCode, message: error.message };
};

describe('checkOutputModes', () => {
  it.each([
    [undefined],
    [[]],
    [['text/plain']],
    [['TEXT/PLAIN']],
    [['image/png', ' text/plain ; charset=utf-8']],
    [['text/*']],
    [['*/*']],
  ])('takes %j, which accepts text answers', (accepted) => {
    expect(() => checkOutputModes(accepted)).not.toThrow();
  });

  it.each([[['application/json']], [['image/png', 'text/html']], [['charset=text/plain']], [['*/plain']]])(
    'refuses %j with ContentTypeNotSupported naming the modes',
    (accepted) => {
      let thrown: unknown;
      try {
        checkOutputModes(accepted);
      } catch (error) {
        thrown = error;
      }
      expect(A2aRpcError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({
        rpcCode: -32005,
        message: `configuration.acceptedOutputModes [${accepted.join(', ')}]: this agent answers in text/plain (its response artifact and messages), which the client does not accept`,
      });
    },
  );
});

describe('messageInput', () => {
  it('gives the parts in order, blank-line separated, data as labelled JSON, leaving empty text out', async () => {
    const text = await input([
      { text: 'First' },
      { text: '' },
      { data: { a: [1] }, mediaType: 'application/vnd.x+json' },
      { data: 0, mediaType: '' },
      { data: null },
      { text: 'Last', url: 'https://example.invalid/ignored' },
    ]);
    expect(text).toBe(
      [
        'First',
        'Data (application/vnd.x+json):\n```json\n{\n  "a": [\n    1\n  ]\n}\n```',
        'Data (application/json):\n```json\n0\n```',
        'Data (application/json):\n```json\nnull\n```',
        'Last',
      ].join('\n\n'),
    );
    expect(await input([])).toBe('');
  });

  it('refuses a file part, saying what it was and where', async () => {
    expect(await refusal([{ text: 'see' }, { raw: 'AAAA', filename: 'a.png', mediaType: 'image/png' }])).toEqual({
      rpcCode: -32005,
      message:
        "message.parts[1]: a file part ('a.png') of type image/png (raw bytes) is not supported: this agent reads text and data parts (text/plain, application/json); send the file's content as text or data",
    });
    expect((await refusal([{ url: 'https://example.invalid/a', filename: '', mediaType: '' }])).message).toMatch(
      /^message\.parts\[0\]: a file part \(a url\) is not supported/,
    );
    expect((await refusal([{ url: 'https://example.invalid/a' }])).message).toMatch(
      /^message\.parts\[0\]: a file part \(a url\)/,
    );
  });

  it('refuses a part with no content as invalid params', async () => {
    expect(await refusal([{ text: 'x' }, { mediaType: 'text/plain' }])).toEqual({
      rpcCode: -32602,
      message: 'message.parts[1]: a part needs one of text, data, raw or url',
    });
  });
});
