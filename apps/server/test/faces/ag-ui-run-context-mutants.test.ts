// A run input's `context` at its bounds (`run-context.ts`, pure): none (absent, null or empty) is no text; 100
// entries and 64 KiB of text are accepted, one more refused saying how many; a malformed entry is refused naming
// where. The last context recorded is found wherever it is in the log, a lone first event and past a rejection.
import { createEvent, type TextContent } from '@x/events';
import { createMemoryFileStore, EventLog } from '@x/store';
import { describe, expect, it } from 'vitest';
import {
  lastRecordedContext,
  MAX_CONTEXT_BYTES,
  MAX_CONTEXT_ENTRIES,
  runContextContent,
} from '../../src/faces/ag-ui/run-context.js';

const entries = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ description: `entry ${index}`, value: 'v' }));

const invalid = (text: string) =>
  expect.objectContaining({ code: 'invalid_context', message: expect.stringContaining(text) });

describe('runContextContent at its bounds', () => {
  it('is no text for an absent, null or empty context', () => {
    expect(runContextContent(undefined)).toBeUndefined();
    expect(runContextContent(null)).toBeUndefined();
    expect(runContextContent([])).toBeUndefined();
  });

  it('is one text part for the model, not marked for prompt caching (it changes from run to run)', () => {
    expect(runContextContent([{ description: 'page', value: '/a' }])).toEqual({
      cache_prompt: false,
      type: 'text',
      text: "<context>\nContext the user's application gives for this request:\n\npage:\n/a\n</context>",
    });
  });

  it('accepts MAX_CONTEXT_ENTRIES entries and refuses one more, saying how many it got', () => {
    expect(runContextContent(entries(MAX_CONTEXT_ENTRIES))?.text).toContain(`entry ${MAX_CONTEXT_ENTRIES - 1}:\nv`);
    expect(() => runContextContent(entries(MAX_CONTEXT_ENTRIES + 1))).toThrow(
      invalid(`context: ${MAX_CONTEXT_ENTRIES + 1} entries, more than ${MAX_CONTEXT_ENTRIES}`),
    );
  });

  it('accepts MAX_CONTEXT_BYTES of text and refuses one byte more', () => {
    // The text is `description:\nvalue`: `d:\n` is three bytes besides the value.
    const sized = (bytes: number) => [{ description: 'd', value: 'x'.repeat(bytes - 3) }];
    expect(runContextContent(sized(MAX_CONTEXT_BYTES))?.type).toBe('text');
    expect(() => runContextContent(sized(MAX_CONTEXT_BYTES + 1))).toThrow(
      invalid(`context: ${MAX_CONTEXT_BYTES + 1} bytes of text`),
    );
  });

  it('names the first malformed entry and field', () => {
    expect(() =>
      runContextContent([
        { description: 'page', value: '/a' },
        { description: 'user', value: 7 },
        { description: 8, value: 'x' },
      ]),
    ).toThrow(invalid('context.1.value: '));
    expect(() => runContextContent('the page')).toThrow(invalid('context: '));
  });
});

describe('lastRecordedContext', () => {
  const context = (value: string): TextContent => {
    const content = runContextContent([{ description: 'page', value }]);
    if (content === undefined) throw new Error('no context');
    return content;
  };
  const userMessage = (extended: TextContent[]) =>
    createEvent('MessageEvent', {
      source: 'user',
      llm_message: { role: 'user', content: [], thinking_blocks: [] },
      extended_content: extended,
    });

  it('finds the context of a log’s only event, and past a user’s rejection of an action', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    await log.append(userMessage([context('/only')]));
    expect(await lastRecordedContext(log)).toBe(context('/only').text);
    await log.append(
      createEvent('UserRejectObservation', {
        source: 'user',
        tool_name: 'terminal',
        tool_call_id: 'call_1',
        action_id: 'a1',
        rejection_reason: 'no',
      }),
    );
    expect(await lastRecordedContext(log)).toBe(context('/only').text);
  });
});
