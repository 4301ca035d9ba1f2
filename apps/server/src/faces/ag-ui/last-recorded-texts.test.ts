import { createEvent, type TextContent } from '@x/events';
import { createMemoryFileStore, EventLog } from '@x/store';
import { describe, expect, it } from 'vitest';
import { lastRecordedTexts } from './last-recorded-texts.js';

const part = (text: string): TextContent => ({ cache_prompt: false, type: 'text', text });
const userMessage = (extended: TextContent[], source: 'user' | 'agent' = 'user') =>
  createEvent('MessageEvent', {
    source,
    llm_message: { role: source === 'user' ? 'user' : 'assistant', content: [part('hi')], thinking_blocks: [] },
    extended_content: extended,
  });

describe('lastRecordedTexts', () => {
  it('finds the last part of each opening on user messages, each from its own message, none past a condensation', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    await log.append(userMessage([part('<a>old')]));
    await log.append(userMessage([part('<b>1'), part('<b>2')]));
    // Far back: found through more than one chunk of the look-back.
    for (let index = 0; index < 250; index += 1) await log.append(userMessage([]));
    await log.append(userMessage([part('<a>agent')], 'agent'));
    await log.append(userMessage([part('<a>new')]));
    expect(Object.fromEntries(await lastRecordedTexts(log, ['<a>', '<b>', '<c>']))).toEqual({
      '<a>': '<a>new',
      '<b>': '<b>2',
    });

    await log.append(
      createEvent('Condensation', { source: 'environment', forgotten_event_ids: [], llm_response_id: 'resp_1' }),
    );
    await log.append(userMessage([part('<b>3')]));
    expect(Object.fromEntries(await lastRecordedTexts(log, ['<a>', '<b>']))).toEqual({ '<b>': '<b>3' });
  });
});
