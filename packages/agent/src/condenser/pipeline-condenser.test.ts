import type { Condensation, View } from '@x/events';
import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { fakeLLM, messageEvents, viewOf } from './__fixtures__/condenser-fixtures.js';
import type { Condenser } from './condenser.js';
import { LLMSummarizingCondenser } from './llm-summarizing-condenser.js';
import { NoOpCondenser } from './no-op-condenser.js';
import { PipelineCondenser } from './pipeline-condenser.js';

/** A condenser that records the views it saw and answers with `result(view)`. */
function recording(result: (view: View) => View | Condensation, handles = false) {
  const seen: View[] = [];
  const condenser: Condenser = {
    async condense(view) {
      seen.push(view);
      return result(view);
    },
    handlesCondensationRequests: () => handles,
    toJSON: () => ({ kind: 'Recording' }),
  };
  return { condenser, seen };
}

const condensationEvent = () => createEvent('Condensation', { forgotten_event_ids: ['x'], llm_response_id: 'r' });

describe('NoOpCondenser', () => {
  it('returns the view unchanged and serializes as its kind', async () => {
    const view = viewOf(messageEvents(3));
    const condenser = new NoOpCondenser();
    expect(await condenser.condense(view)).toBe(view);
    expect(view.events).toHaveLength(3);
    expect(condenser.handlesCondensationRequests()).toBe(false);
    expect(condenser.toJSON()).toEqual({ kind: 'NoOpCondenser' });
  });
});

describe('PipelineCondenser', () => {
  it('feeds each condenser the previous view', async () => {
    const smaller = viewOf(messageEvents(1));
    const first = recording(() => smaller);
    const second = recording((view) => view);
    const view = viewOf(messageEvents(3));
    const result = await new PipelineCondenser([first.condenser, second.condenser]).condense(view);
    expect(first.seen).toEqual([view]);
    expect(second.seen[0]).toBe(smaller);
    expect(result).toBe(smaller);
  });

  it('stops at the first Condensation', async () => {
    const produced = condensationEvent();
    const first = recording(() => produced);
    const second = recording(() => condensationEvent());
    const result = await new PipelineCondenser([first.condenser, second.condenser]).condense(viewOf(messageEvents(2)));
    expect(result).toBe(produced);
    expect(second.seen).toHaveLength(0);
  });

  it('gives every condenser the caller’s context', async () => {
    const contexts: unknown[] = [];
    const remember: Condenser = {
      async condense(view, context) {
        contexts.push(context);
        return view;
      },
      handlesCondensationRequests: () => false,
      toJSON: () => ({ kind: 'Remember' }),
    };
    const context = { llm: fakeLLM(), signal: new AbortController().signal };
    await new PipelineCondenser([remember, remember]).condense(viewOf(messageEvents(2)), context);
    expect(contexts).toEqual([context, context]);
  });

  it('keeps its own list: changing the array it was built from changes nothing', async () => {
    const children: Condenser[] = [new NoOpCondenser()];
    const pipeline = new PipelineCondenser(children);
    children.push(recording(() => condensationEvent()).condenser);
    const view = viewOf(messageEvents(2));
    expect(await pipeline.condense(view)).toBe(view);
    expect(pipeline.toJSON()).toEqual({ condensers: [{ kind: 'NoOpCondenser' }], kind: 'PipelineCondenser' });
  });

  it('returns the view when empty, and handles requests iff a child does', async () => {
    const view = viewOf(messageEvents(2));
    expect(await new PipelineCondenser([]).condense(view)).toBe(view);
    expect(new PipelineCondenser([new NoOpCondenser()]).handlesCondensationRequests()).toBe(false);
    const summarizer = new LLMSummarizingCondenser({ llm: fakeLLM() });
    expect(new PipelineCondenser([new NoOpCondenser(), summarizer]).handlesCondensationRequests()).toBe(true);
  });

  it('serializes its children in order', () => {
    expect(new PipelineCondenser([new NoOpCondenser(), new NoOpCondenser()]).toJSON()).toEqual({
      condensers: [{ kind: 'NoOpCondenser' }, { kind: 'NoOpCondenser' }],
      kind: 'PipelineCondenser',
    });
  });
});
