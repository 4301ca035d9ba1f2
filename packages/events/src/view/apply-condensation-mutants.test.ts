import { describe, expect, it } from 'vitest';
import { condensation, userMessage } from '../../test/support/event-builders.js';
import { createEvent } from '../create/create-event.js';
import { applyCondensation } from './apply-condensation.js';

const ids = (events: readonly { id: string }[]) => events.map((event) => event.id);
const events = [userMessage('a'), userMessage('b'), userMessage('c')];

describe('applyCondensation (reference Condensation.apply)', () => {
  it('inserts no summary when only the offset is set', () => {
    const offsetOnly = createEvent('Condensation', {
      id: 'C',
      source: 'environment',
      forgotten_event_ids: ['M-b'],
      summary_offset: 1,
      llm_response_id: 'r',
    });
    expect(ids(applyCondensation(events, offsetOnly))).toEqual(['M-a', 'M-c']);
  });

  it('forgets a single id and inserts the summary after the kept head', () => {
    const result = applyCondensation(events, condensation('C', ['M-b'], { summary: 'S', offset: 1 }));
    expect(ids(result)).toEqual(['M-a', 'C-summary', 'M-c']);
    expect(result[1]).toMatchObject({ kind: 'CondensationSummaryEvent', summary: 'S', source: 'environment' });
  });

  it('appends the summary at an offset equal to the length, and never changes its input', () => {
    const input = [...events];
    const result = applyCondensation(input, condensation('C', [], { summary: 'S', offset: 3 }));
    expect(ids(result)).toEqual(['M-a', 'M-b', 'M-c', 'C-summary']);
    expect(ids(input)).toEqual(['M-a', 'M-b', 'M-c']);
    expect(applyCondensation(input, condensation('D', []))).not.toBe(input);
  });
});
