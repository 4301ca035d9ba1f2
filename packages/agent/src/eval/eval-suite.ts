import { z } from 'zod';
import { InvalidEvalSuiteError } from './errors/invalid-eval-suite-error.js';
import { MAX_RUNS } from './eval-options.js';
import { scorerConfigSchema, scorerTypes } from './scorers/scorer-config.js';

/**
 * One case: a `task` the agent runs live (`runs` times), or a recorded `conversation` (a directory path, relative
 * to the suite file, or an id in the conversations directory) replayed strictly against today's agent; then
 * the scorers grade each run.
 */
export const evalCaseSchema = z
  .strictObject({
    /** Names the case in tables, reports and baselines. */
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, `_`, `.` and `-`, not first'),
    description: z.string().optional(),
    /** The user message a live run starts with. */
    task: z.string().min(1).optional(),
    /** A recorded conversation: its directory (relative to the suite file) or its id. */
    conversation: z.string().min(1).optional(),
    /**
     * For a recorded conversation: replay it against today's agent first (default), failing the case at the
     * first request that differs; `false` scores the recording as it is.
     */
    replay: z.boolean().optional(),
    /** Live runs of this case (default: the suite's, then `--runs`). */
    runs: z.number().int().min(1).max(MAX_RUNS).optional(),
    scorers: z.array(scorerConfigSchema).min(1),
  })
  .superRefine((value, context) => {
    if ((value.task === undefined) === (value.conversation === undefined)) {
      context.addIssue({ code: 'custom', path: ['task'], message: 'a case has either a task or a conversation' });
    }
    if (value.task !== undefined && value.replay !== undefined) {
      context.addIssue({ code: 'custom', path: ['replay'], message: 'replay applies to a recorded conversation' });
    }
  });
export type EvalCase = z.infer<typeof evalCaseSchema>;

export const evalSuiteSchema = z.strictObject({
  name: z.string().min(1).optional(),
  /** Live runs per case unless a case says otherwise. */
  runs: z.number().int().min(1).max(MAX_RUNS).optional(),
  cases: z.array(evalCaseSchema).min(1),
});
/** A validated suite; `directory` is where relative conversation paths start (the suite file's). */
export type EvalSuite = z.infer<typeof evalSuiteSchema> & { directory?: string | undefined };

const suiteShellSchema = z.looseObject({
  name: z.unknown().optional(),
  runs: z.unknown().optional(),
  cases: z.array(z.unknown()).min(1, 'a suite has at least one case'),
});

function fieldOf(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

function caseLabel(value: unknown, index: number): string {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id !== '' ? id : `cases[${index}]`;
}

/** Unknown scorer types, reported before zod's union error (which would not name the known ones). */
function unknownScorer(value: unknown): { field: string; problem: string } | undefined {
  const scorers = (value as { scorers?: unknown } | null)?.scorers;
  if (!Array.isArray(scorers)) return undefined;
  for (const [index, scorer] of scorers.entries()) {
    const type = typeof scorer === 'string' ? scorer : (scorer as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !(scorerTypes as string[]).includes(type)) {
      return {
        field: `scorers.${index}${typeof scorer === 'string' ? '' : '.type'}`,
        problem: `unknown scorer ${JSON.stringify(type ?? null)} (known: ${scorerTypes.join(', ')})`,
      };
    }
  }
  return undefined;
}

/** Validates a suite (already parsed from YAML or JSON); `InvalidEvalSuiteError` names the case and field. */
export function parseEvalSuite(value: unknown, options: { source?: string; directory?: string } = {}): EvalSuite {
  const { source } = options;
  const shell = suiteShellSchema.safeParse(value);
  if (!shell.success) {
    const issue = shell.error.issues[0];
    throw new InvalidEvalSuiteError({
      source,
      field: fieldOf(issue?.path ?? []),
      problem: issue?.message ?? 'invalid',
    });
  }
  const seen = new Set<string>();
  shell.data.cases.forEach((entry, index) => {
    const caseId = caseLabel(entry, index);
    const unknown = unknownScorer(entry);
    if (unknown !== undefined) throw new InvalidEvalSuiteError({ source, caseId, ...unknown });
    const parsed = evalCaseSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidEvalSuiteError({
        source,
        caseId,
        field: fieldOf(issue?.path ?? []),
        problem: issue?.message ?? 'invalid',
      });
    }
    if (seen.has(parsed.data.id)) {
      throw new InvalidEvalSuiteError({ source, caseId, field: 'id', problem: 'two cases have this id' });
    }
    seen.add(parsed.data.id);
  });
  const suite = evalSuiteSchema.safeParse(value);
  if (!suite.success) {
    const issue = suite.error.issues[0];
    throw new InvalidEvalSuiteError({
      source,
      field: fieldOf(issue?.path ?? []),
      problem: issue?.message ?? 'invalid',
    });
  }
  return { ...suite.data, ...(options.directory === undefined ? {} : { directory: options.directory }) };
}
