import { z } from 'zod';
import type { LLMResponse } from '../../llm/llm.js';
import { checkRateOption } from '../eval-options.js';
import type { EvalRun } from '../eval-run.js';
import type { ScoreResult, Scorer } from './scorer.js';

export const llmJudgeConfigSchema = z.strictObject({
  type: z.literal('llm-judge'),
  /** What a good run does, in plain words; the judge grades the run against it. */
  rubric: z.string().min(1),
  /** Least grade (0 to 1) that passes. Default 0.7. */
  threshold: z.number().min(0).max(1).optional(),
});
export type LLMJudgeConfig = z.infer<typeof llmJudgeConfigSchema>;

const verdictSchema = z.object({ score: z.number().min(0).max(1), reason: z.string().default('') });

const SYSTEM = [
  'You grade the work of an AI agent against a rubric.',
  'Reply with one JSON object and nothing else: {"score": <number from 0 to 1>, "reason": "<one sentence>"}.',
].join('\n');

function transcript(run: EvalRun): string {
  const calls = run.toolCalls.map((call, index) => `${index + 1}. ${call.tool} ${JSON.stringify(call.arguments)}`);
  return [
    `Task:\n${run.task}`,
    `Tool calls:\n${calls.join('\n') || '(none)'}`,
    `Errors:\n${run.errors.join('\n') || '(none)'}`,
    `Final answer:\n${run.finalAnswer || '(none)'}`,
  ].join('\n\n');
}

/**
 * The first `{...}` of the reply that is a verdict; undefined when there is none. Each `{` is tried with each later
 * `}`, so braces in the judge's prose before the verdict (or inside its reason) do not hide it.
 */
function parseVerdict(text: string): z.infer<typeof verdictSchema> | undefined {
  const closes = [...text.matchAll(/\}/g)].map((match) => match.index);
  for (const open of text.matchAll(/\{/g)) {
    for (const close of closes) {
      if (close < open.index) continue;
      const parsed = verdictSchema.safeParse(parseJson(text.slice(open.index, close + 1)));
      if (parsed.success) return parsed.data;
    }
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function textOf(response: LLMResponse): string {
  return response.message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * Asks a model (the suite's judge, any x LLM) to grade the run against `rubric`, from the task, the tool calls,
 * the errors and the final answer. Its usage goes to `context.onJudgeResponse` and its cost into the result.
 */
export function llmJudge(rubric: string, threshold = 0.7): Scorer {
  checkRateOption('threshold', threshold);
  return {
    name: 'llm-judge',
    async score(run, context): Promise<ScoreResult> {
      if (context.judge === undefined) {
        return { scorer: 'llm-judge', passed: false, score: 0, detail: 'no judge model configured' };
      }
      const response = await context.judge.complete({
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: `Rubric:\n${rubric}\n\n${transcript(run)}` },
        ],
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      context.onJudgeResponse?.(response);
      const reply = textOf(response);
      const graded = parseVerdict(reply);
      if (graded === undefined) {
        const shown = reply.length > 120 ? `${reply.slice(0, 117)}...` : reply;
        return {
          scorer: 'llm-judge',
          passed: false,
          score: 0,
          detail: `the judge's reply is not a {"score", "reason"} verdict: ${JSON.stringify(shown)}`,
          costUsd: response.cost,
        };
      }
      return {
        scorer: 'llm-judge',
        passed: graded.score >= threshold,
        score: graded.score,
        detail: `graded ${graded.score} (threshold ${threshold}): ${graded.reason}`,
        costUsd: response.cost,
      };
    },
  };
}
