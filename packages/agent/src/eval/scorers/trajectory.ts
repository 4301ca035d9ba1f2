import { createRequire } from 'node:module';
import { z } from 'zod';
import { checkRateOption } from '../eval-options.js';
import type { EvalToolCall } from '../eval-run.js';
import type { Scorer } from './scorer.js';
import { workspaceRelativeArguments } from './tool-call-paths.js';

/** An expected tool call: its name, or its name and the arguments it must have (others may be there too). */
export const expectedToolCallSchema = z.union([
  z.string().min(1),
  z.strictObject({ tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).optional() }),
]);
export type ExpectedToolCall = z.infer<typeof expectedToolCallSchema>;

export const trajectoryMatchSchema = z.enum(['exact', 'in-order', 'any-order']);
export type TrajectoryMatch = z.infer<typeof trajectoryMatchSchema>;

export const trajectoryConfigSchema = z.strictObject({
  type: z.literal('trajectory'),
  /**
   * `exact`: the same calls in the same order, nothing else; `in-order`: the expected calls in this order,
   * others may come between; `any-order`: the expected calls in any order.
   */
  match: trajectoryMatchSchema,
  tools: z.array(expectedToolCallSchema).min(1),
  /** Least share of the agent's calls that were expected. Default 1 for `exact`, else 0. */
  minPrecision: z.number().min(0).max(1).optional(),
  /** Least share of the expected calls the agent made. Default 1. */
  minRecall: z.number().min(0).max(1).optional(),
});
export type TrajectoryConfig = z.infer<typeof trajectoryConfigSchema>;

/**
 * `node:util`, required on first use: imported as an ES module it is built with every lazy export it has (argument
 * parsing, MIME types), a cost every process importing the package paid for a scorer few of them run.
 */
let util: typeof import('node:util') | undefined;
function isDeepStrictEqual(left: unknown, right: unknown): boolean {
  util ??= createRequire(import.meta.url)('node:util') as typeof import('node:util');
  return util.isDeepStrictEqual(left, right);
}

function matches(expected: ExpectedToolCall, actual: EvalToolCall): boolean {
  if (typeof expected === 'string') return expected === actual.tool;
  if (expected.tool !== actual.tool) return false;
  return Object.entries(expected.arguments ?? {}).every(([key, value]) =>
    isDeepStrictEqual(actual.arguments[key], value),
  );
}

/** Length of the longest common subsequence: how many expected calls were made in the expected order. */
function inOrderMatches(expected: readonly ExpectedToolCall[], actual: readonly EvalToolCall[]): number {
  const table = Array.from({ length: expected.length + 1 }, () => new Array<number>(actual.length + 1).fill(0));
  for (let i = 1; i <= expected.length; i++) {
    for (let j = 1; j <= actual.length; j++) {
      table[i]![j] = matches(expected[i - 1]!, actual[j - 1]!)
        ? table[i - 1]![j - 1]! + 1
        : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
    }
  }
  return table[expected.length]![actual.length]!;
}

/**
 * How many expected calls were made, each actual call counting once, in any order: a maximum matching (augmenting
 * paths), not a greedy one, which can hand a call that fits two expectations to the wrong one and miss the other.
 */
function anyOrderMatches(expected: readonly ExpectedToolCall[], actual: readonly EvalToolCall[]): number {
  const fits = expected.map((call) => actual.map((candidate) => matches(call, candidate)));
  // The expected call each actual call is matched to, if any.
  const holder = new Array<number | undefined>(actual.length).fill(undefined);
  const assign = (want: number, seen: Set<number>): boolean => {
    for (let position = 0; position < actual.length; position++) {
      if (seen.has(position) || !fits[want]![position]) continue;
      seen.add(position);
      const current = holder[position];
      if (current === undefined || assign(current, seen)) {
        holder[position] = want;
        return true;
      }
    }
    return false;
  };
  let count = 0;
  for (let want = 0; want < expected.length; want++) if (assign(want, new Set())) count += 1;
  return count;
}

function label(call: ExpectedToolCall): string {
  return typeof call === 'string' ? call : call.tool;
}

/** Both sides' file paths made workspace-relative, so `src/a.ts` and `<workspace>/src/a.ts` are one file. */
function withWorkspacePaths(call: ExpectedToolCall, workspace: string | undefined): ExpectedToolCall {
  if (typeof call === 'string' || call.arguments === undefined) return call;
  return { ...call, arguments: workspaceRelativeArguments(call.tool, call.arguments, workspace) };
}

/**
 * Compares the agent's tool calls with the expected ones. The paths the built-in file tools take are compared
 * relative to the run's workspace (see `workspacePath`). Precision is the share of the agent's calls that
 * matched an expected one, recall the share of expected calls that were made; the score is their F1.
 */
export function trajectory(config: Omit<TrajectoryConfig, 'type'>): Scorer {
  checkRateOption('minPrecision', config.minPrecision);
  checkRateOption('minRecall', config.minRecall);
  const minPrecision = config.minPrecision ?? (config.match === 'exact' ? 1 : 0);
  const minRecall = config.minRecall ?? 1;
  return {
    name: 'trajectory',
    async score(run) {
      const actual = run.toolCalls.map((call) => ({
        tool: call.tool,
        arguments: workspaceRelativeArguments(call.tool, call.arguments, run.workspace),
      }));
      const expected = config.tools.map((call) => withWorkspacePaths(call, run.workspace));
      const matched =
        config.match === 'any-order' ? anyOrderMatches(expected, actual) : inOrderMatches(expected, actual);
      const precision = actual.length === 0 ? 0 : matched / actual.length;
      const recall = matched / config.tools.length;
      const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
      const passed = precision >= minPrecision && recall >= minRecall;
      const made = actual.map((call) => call.tool).join(' → ') || '(no tool calls)';
      return {
        scorer: 'trajectory',
        passed,
        score: f1,
        detail: `${config.match}: precision ${precision.toFixed(2)} (min ${minPrecision}), recall ${recall.toFixed(2)} (min ${minRecall}); expected ${config.tools.map(label).join(' → ')}, made ${made}`,
      };
    },
  };
}
