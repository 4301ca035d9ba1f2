import { describe, expect, it } from 'vitest';
import { fakeLLM, messageEvents, viewOf } from './__fixtures__/condenser-fixtures.js';
import { condenserFromJSON } from './condenser-from-json.js';
import { InvalidCondenserConfigError } from './invalid-condenser-config-error.js';
import type { LLMSummarizingCondenser } from './llm-summarizing-condenser.js';

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidCondenserConfigError) return [...error.problems];
    throw error;
  }
  throw new Error('expected InvalidCondenserConfigError');
}

describe('condenserFromJSON: values a reader must not mistake for "unset"', () => {
  it('keeps keep_first 0 (forget from the very first event) instead of the default 2', () => {
    const restored = condenserFromJSON(
      { kind: 'LLMSummarizingCondenser', max_size: 20, keep_first: 0 },
      { llm: fakeLLM() },
    ) as LLMSummarizingCondenser;
    expect(restored.settings.keepFirst).toBe(0);
    expect(restored.toJSON().keep_first).toBe(0);
  });

  it('rejects a zero for every setting that must be positive, naming its JSON key', () => {
    for (const key of [
      'max_size',
      'max_tokens',
      'minimum_progress',
      'hard_context_reset_max_retries',
      'hard_context_reset_context_scaling',
      'max_event_str_length',
    ]) {
      const problems = problemsOf(() =>
        condenserFromJSON({ kind: 'LLMSummarizingCondenser', [key]: 0 }, { llm: fakeLLM() }),
      );
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(new RegExp(`^\\$: ${key}: .*\\(got 0\\)$`));
    }
  });
});

describe('condenserFromJSON: shape and options', () => {
  it('rejects an array, null and a string as the condenser object', () => {
    expect(problemsOf(() => condenserFromJSON([]))).toEqual(['$: expected a condenser object, got []']);
    expect(problemsOf(() => condenserFromJSON(null))).toEqual(['$: expected a condenser object, got null']);
    expect(problemsOf(() => condenserFromJSON({ kind: 'PipelineCondenser', condensers: [[]] }))).toEqual([
      '$.condensers[0]: expected a condenser object, got []',
    ]);
  });

  it('counts tokens with the token counter it is given', () => {
    // A counter that calls every request huge: any view over max_tokens, so the requirement is HARD.
    const restored = condenserFromJSON(
      { kind: 'LLMSummarizingCondenser', max_tokens: 1000 },
      { llm: fakeLLM(), tokenCounter: () => 1_000_000 },
    ) as LLMSummarizingCondenser;
    expect(restored.condensationRequirement(viewOf(messageEvents(2)), { llm: fakeLLM() })).toBe('hard');
  });
});
