import { createEvent, type TextContent } from '@x/events';
import { createMemoryFileStore, EventLog } from '@x/store';
import { describe, expect, it } from 'vitest';
import { lastRecordedContext, runContextContent } from './run-context.js';

const contextOf = (value: string): TextContent => {
  const content = runContextContent([{ description: 'page', value }]);
  if (content === undefined) throw new Error('no context');
  return content;
};

const userMessage = (text: string, extended: TextContent[] = []) =>
  createEvent('MessageEvent', {
    source: 'user',
    llm_message: { role: 'user', content: [{ cache_prompt: false, type: 'text', text }], thinking_blocks: [] },
    extended_content: extended,
  });

describe('lastRecordedContext', () => {
  it('finds the last context on a user message, past other events, and none past a condensation', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    expect(await lastRecordedContext(log)).toBeUndefined();
    await log.append(userMessage('first', [contextOf('/a')]));
    await log.append(userMessage('', [{ cache_prompt: false, type: 'text', text: '<shared_state>{}</shared_state>' }]));
    // Far back: found through more than one chunk of the look-back.
    for (let index = 0; index < 250; index += 1) await log.append(userMessage(`filler ${index}`));
    expect(await lastRecordedContext(log)).toBe(contextOf('/a').text);
    await log.append(userMessage('', [contextOf('/b')]));
    expect(await lastRecordedContext(log)).toBe(contextOf('/b').text);

    // A condensation may have dropped it from the model's view: none is taken as known.
    await log.append(
      createEvent('Condensation', { source: 'environment', forgotten_event_ids: [], llm_response_id: 'resp_1' }),
    );
    expect(await lastRecordedContext(log)).toBeUndefined();
  });
});
