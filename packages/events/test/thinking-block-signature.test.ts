import { describe, expect, it } from 'vitest';
import {
  eventsToMessages,
  parseEvent,
  parseEventJson,
  serializeEvent,
  toChatCompletionsMessages,
} from '../src/index.js';

/**
 * The reference's ThinkingBlock is `type: Literal["thinking"] = "thinking"`, `thinking: str`,
 * `signature: str | None = None`; its RedactedThinkingBlock is `type: Literal["redacted_thinking"] =
 * "redacted_thinking"`, `data: str`; `thinking_blocks` is the plain union of the two (no discriminator). Every
 * expected value below is what the reference's own models gave for the same input (611629e6: `Event.model_validate`,
 * then `model_dump_json(exclude_none=True)` for the file, `Message.to_chat_dict` for the messages).
 */
const action = {
  id: 'a1',
  timestamp: '2024-01-01T00:00:00',
  source: 'agent',
  thought: [],
  thinking_blocks: [] as unknown[],
  action: { thought: 'x', kind: 'ThinkAction' },
  tool_name: 'think',
  tool_call_id: 'c1',
  tool_call: { id: 'c1', name: 'think', arguments: '{}', origin: 'completion' },
  llm_response_id: 'r1',
  security_risk: 'UNKNOWN',
  kind: 'ActionEvent',
};

const withBlocks = (blocks: unknown[]) => ({ ...action, thinking_blocks: blocks });

/** The `thinking_blocks` of the file x writes for the event, from its object alone (not the text it was read from). */
function writtenBlocks(json: unknown): string {
  const text = serializeEvent(structuredClone(parseEventJson(JSON.stringify(json))));
  return JSON.stringify((JSON.parse(text) as { thinking_blocks: unknown }).thinking_blocks);
}

describe('thinking blocks read and written as the reference does', () => {
  it('reads a null signature (the agent server sends the full dump) and writes the block without it', () => {
    const json = withBlocks([{ type: 'thinking', thinking: 'hm', signature: null }]);
    const event = parseEvent(structuredClone(json));
    expect(event.kind === 'ActionEvent' && event.thinking_blocks).toEqual([{ type: 'thinking', thinking: 'hm' }]);
    expect(writtenBlocks(json)).toBe('[{"type":"thinking","thinking":"hm"}]');
  });

  it('takes a block without a type as the reference does: thinking when it validates as one, else redacted', () => {
    expect(writtenBlocks(withBlocks([{ thinking: 'hm' }]))).toBe('[{"type":"thinking","thinking":"hm"}]');
    expect(writtenBlocks(withBlocks([{ data: 'x' }]))).toBe('[{"type":"redacted_thinking","data":"x"}]');
    expect(writtenBlocks(withBlocks([{ thinking: 'hm', data: 'd' }]))).toBe('[{"type":"thinking","thinking":"hm"}]');
    expect(writtenBlocks(withBlocks([{ thinking: 7, data: 'd' }]))).toBe('[{"type":"redacted_thinking","data":"d"}]');
    expect(writtenBlocks(withBlocks([{ type: 'redacted_thinking', data: 'x', signature: 's' }]))).toBe(
      '[{"type":"redacted_thinking","data":"x"}]',
    );
    expect(() => parseEvent(withBlocks([{ signature: 's' }]))).toThrow(/thinking_blocks/);
  });

  it('reads the same in an agent message (llm_message.thinking_blocks)', () => {
    const message = {
      id: 'm1',
      timestamp: '2024-01-01T00:00:00',
      source: 'agent',
      llm_message: { role: 'assistant', content: [], thinking_blocks: [{ thinking: 'hm', signature: null }] },
      kind: 'MessageEvent',
    };
    const event = parseEvent(structuredClone(message));
    expect(event.kind === 'MessageEvent' && event.llm_message.thinking_blocks).toEqual([
      { type: 'thinking', thinking: 'hm' },
    ]);
  });
});

describe('thinking blocks in the Chat Completions messages', () => {
  it('sends an unsigned block with "signature": null, key for key as the reference model_dump()s it', () => {
    const event = parseEvent(
      withBlocks([
        { type: 'thinking', thinking: 'hm' },
        { type: 'thinking', thinking: 'ok', signature: 'sig' },
        { data: 'x' },
      ]),
    );
    const [message] = toChatCompletionsMessages(eventsToMessages([event]));
    expect(JSON.stringify(message?.role === 'assistant' ? message.thinking_blocks : undefined)).toBe(
      '[{"type":"thinking","thinking":"hm","signature":null},{"type":"thinking","thinking":"ok","signature":"sig"},{"type":"redacted_thinking","data":"x"}]',
    );
  });
});
