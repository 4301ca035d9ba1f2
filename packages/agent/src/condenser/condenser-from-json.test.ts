import { describe, expect, it } from 'vitest';
import { fakeLLM } from './__fixtures__/condenser-fixtures.js';
import { condenserFromJSON } from './condenser-from-json.js';
import { InvalidCondenserConfigError } from './invalid-condenser-config-error.js';
import { LLMSummarizingCondenser } from './llm-summarizing-condenser.js';
import { NoOpCondenser } from './no-op-condenser.js';
import { PipelineCondenser } from './pipeline-condenser.js';

function problemsOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidCondenserConfigError) return error.problems.join('\n');
    throw error;
  }
  throw new Error('expected InvalidCondenserConfigError');
}

describe('condenserFromJSON', () => {
  it('round-trips every condenser through its JSON', () => {
    const llm = fakeLLM();
    const pipeline = new PipelineCondenser([
      new NoOpCondenser(),
      new LLMSummarizingCondenser({ llm, maxSize: 50, keepFirst: 3, maxTokens: 9000, maxEventStrLength: 400 }),
    ]);
    const restored = condenserFromJSON(JSON.parse(JSON.stringify(pipeline)), { llm });
    expect(restored).toBeInstanceOf(PipelineCondenser);
    expect(restored.toJSON()).toEqual(pipeline.toJSON());
    const summarizer = (restored as PipelineCondenser).condensers[1] as LLMSummarizingCondenser;
    expect(summarizer.llm).toBe(llm);
  });

  it('reads reference JSON with nulls and defaults', () => {
    const restored = condenserFromJSON(
      { kind: 'LLMSummarizingCondenser', llm: { model: 'gpt' }, max_size: 80, keep_first: 4, max_tokens: null },
      { llm: fakeLLM() },
    ) as LLMSummarizingCondenser;
    expect(restored.settings).toMatchObject({ maxSize: 80, keepFirst: 4, minimumProgress: 0.1 });
    expect(restored.settings.maxTokens).toBeUndefined();
  });

  it('names the JSON path of an unknown kind or a malformed config', () => {
    expect(
      problemsOf(() =>
        condenserFromJSON({ kind: 'PipelineCondenser', condensers: [{ kind: 'NoOpCondenser' }, { kind: 'Nope' }] }),
      ),
    ).toBe('$.condensers[1].kind: unknown condenser kind "Nope"');
    expect(problemsOf(() => condenserFromJSON({ kind: 'PipelineCondenser' }))).toContain('$.condensers');
    expect(problemsOf(() => condenserFromJSON('NoOpCondenser'))).toContain('$: expected a condenser object');
    expect(
      problemsOf(() => condenserFromJSON({ kind: 'LLMSummarizingCondenser', max_size: 'big' }, { llm: fakeLLM() })),
    ).toContain('$.max_size');
  });

  it('reports invalid settings under their JSON keys, and requires an LLM', () => {
    expect(
      problemsOf(() =>
        condenserFromJSON({ kind: 'LLMSummarizingCondenser', max_size: 10, keep_first: 8 }, { llm: fakeLLM() }),
      ),
    ).toBe('$: max_size // 2 - keep_first - 1 must be > 0, but max_size 10 and keep_first 8 give -4');
    expect(problemsOf(() => condenserFromJSON({ kind: 'LLMSummarizingCondenser' }))).toContain('$.llm');
  });
});
