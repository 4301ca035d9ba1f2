import type { LLM, LLMResponse } from '../llm/llm.js';
import { defaultEvalAgent, type EvalAgentFactory } from './eval-agent.js';
import { checkCountOption, checkLimitOption } from './eval-options.js';
import type { EvalCaseResult, EvalReport, EvalRunResult, JudgeUsage } from './eval-report.js';
import { evalRunFromEvents } from './eval-run.js';
import { type EvalCase, type EvalSuite, parseEvalSuite } from './eval-suite.js';
import { locateConversation, readRecordedConversation } from './recorded-conversation.js';
import { passAtK, passHatK } from './reliability.js';
import { replayRecording } from './replay-case.js';
import { runLiveCase } from './run-live-case.js';
import { scoreRun } from './score-run.js';
import type { ScorerContext } from './scorers/scorer.js';
import { createScorer } from './scorers/scorer-config.js';

/** Options of `runEvalSuite`. */
export interface RunEvalSuiteOptions {
  /** The model of live runs: one LLM, or a factory giving each run its own (a fresh scripted model, say). */
  llm?: LLM | ((context: { caseId: string; run: number }) => LLM);
  /** The agent under test, built around the model it must use. Default: `x run`'s default agent. */
  agent?: EvalAgentFactory;
  /** The model the `llm-judge` scorer asks; its usage and cost are reported in `report.judge`. */
  judge?: LLM;
  /** Live runs per case when neither the case nor the suite says (default 1; a whole number from 1 to 1000). */
  runs?: number;
  /** The k of pass@k and pass^k (default: each case's number of runs; a whole number from 1 to 1000). */
  k?: number;
  /** Where live runs' conversations are kept (and recorded ids are looked up); default: temporary, removed. */
  persistenceDir?: string;
  /**
   * How long one scorer may take on one run, in seconds (default 300): a scorer that takes longer fails that run
   * (`the scorer failed: it did not answer within N s`) and the suite goes on; a number above 0.
   */
  scorerTimeoutSeconds?: number;
  /** Called after each run, for progress. */
  onRun?: (caseId: string, result: EvalRunResult) => void;
  /** The report's timestamp (injectable for tests). */
  now?: () => Date;
}

function summarize(
  id: string,
  mode: EvalCaseResult['mode'],
  runs: EvalRunResult[],
  k: number | undefined,
): EvalCaseResult {
  const passed = runs.filter((run) => run.passed).length;
  const draws = Math.max(1, Math.min(k ?? runs.length, runs.length));
  const judgeCostUsd = runs.reduce(
    (total, run) => total + run.scores.reduce((sum, score) => sum + (score.costUsd ?? 0), 0),
    0,
  );
  return {
    id,
    mode,
    runs,
    passed,
    passRate: runs.length === 0 ? 0 : passed / runs.length,
    k: draws,
    passAtK: passAtK(runs.length, passed, draws),
    passHatK: passHatK(runs.length, passed, draws),
    judgeCostUsd,
  };
}

async function runCase(
  suite: EvalSuite,
  evalCase: EvalCase,
  options: RunEvalSuiteOptions,
  scorerContext: ScorerContext,
): Promise<EvalCaseResult> {
  const scorers = evalCase.scorers.map(createScorer);
  const agent = options.agent ?? defaultEvalAgent;
  const runs: EvalRunResult[] = [];
  const record = (result: EvalRunResult) => {
    runs.push(result);
    options.onRun?.(evalCase.id, result);
  };

  if (evalCase.conversation !== undefined) {
    const location = locateConversation(evalCase.conversation, {
      caseId: evalCase.id,
      directory: suite.directory,
      persistenceDir: options.persistenceDir,
    });
    const recording = await readRecordedConversation(location);
    const mode = evalCase.replay === false ? 'recorded' : 'replay';
    const scored = await evalRunFromEvents(recording.events, { workspace: recording.workspace });
    const base = {
      run: 1,
      costUsd: scored.costUsd,
      durationSeconds: scored.durationSeconds,
      conversationId: recording.id,
      location,
    };
    if (mode === 'replay') {
      const outcome = await replayRecording(recording, { caseId: evalCase.id, agent });
      if (outcome.divergence !== undefined) {
        const { requestIndex, path, diff } = outcome.divergence;
        record({ ...base, passed: false, scores: [], divergence: { requestIndex, path, diff } });
        return summarize(evalCase.id, mode, runs, options.k);
      }
    }
    // The replay matched, so today's agent makes the recorded requests: the recording's events stand for it.
    const scores = await scoreRun(scored, scorers, scorerContext);
    record({ ...base, passed: scores.every((score) => score.passed), scores });
    return summarize(evalCase.id, mode, runs, options.k);
  }

  const total = evalCase.runs ?? suite.runs ?? options.runs ?? 1;
  for (let run = 1; run <= total; run++) {
    const llm = typeof options.llm === 'function' ? options.llm({ caseId: evalCase.id, run }) : options.llm;
    if (llm === undefined) {
      record({ run, passed: false, scores: [], costUsd: 0, durationSeconds: 0, error: 'no model for live runs' });
      continue;
    }
    try {
      const live = await runLiveCase({
        caseId: evalCase.id,
        run,
        task: evalCase.task ?? '',
        llm,
        agent,
        persistenceDir: options.persistenceDir,
      });
      const scored = await evalRunFromEvents(live.events, { workspace: live.workspace });
      const scores = await scoreRun(scored, scorers, scorerContext);
      record({
        run,
        passed: scores.every((score) => score.passed),
        scores,
        costUsd: scored.costUsd,
        durationSeconds: scored.durationSeconds,
        conversationId: live.conversationId,
        ...(live.location === undefined ? {} : { location: live.location }),
      });
    } catch (error) {
      record({ run, passed: false, scores: [], costUsd: 0, durationSeconds: 0, error: (error as Error).message });
    }
  }
  return summarize(evalCase.id, 'live', runs, options.k);
}

/**
 * Runs every case of a suite: live cases `runs` times with the model in `options.llm`, recorded cases through a
 * strict replay against today's agent; scores each run and reports pass rates, pass@k and pass^k per case.
 * A recorded conversation that cannot be found throws `EvalConversationNotFoundError` before anything runs, an
 * option out of range `InvalidEvalOptionError`, and a suite built in code that would not load from a file (a case
 * with `runs: 0`, say) `InvalidEvalSuiteError`.
 */
export async function runEvalSuite(declared: EvalSuite, options: RunEvalSuiteOptions = {}): Promise<EvalReport> {
  checkCountOption('runs', options.runs);
  checkCountOption('k', options.k);
  if (options.scorerTimeoutSeconds !== undefined) {
    checkLimitOption('scorerTimeoutSeconds', options.scorerTimeoutSeconds);
  }
  // A suite object typed as `EvalSuite` need not have come through `parseEvalSuite`: check it as a file's would be.
  const { directory, ...fields } = declared;
  const suite = parseEvalSuite(fields, directory === undefined ? {} : { directory });
  for (const evalCase of suite.cases) {
    if (evalCase.conversation !== undefined) {
      locateConversation(evalCase.conversation, {
        caseId: evalCase.id,
        directory: suite.directory,
        persistenceDir: options.persistenceDir,
      });
    }
  }
  const judge: JudgeUsage | undefined =
    options.judge === undefined
      ? undefined
      : { model: options.judge.model, calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 };
  const scorerContext: ScorerContext = {
    judge: options.judge,
    scorerTimeoutSeconds: options.scorerTimeoutSeconds,
    onJudgeResponse: (response: LLMResponse) => {
      if (judge === undefined) return;
      judge.calls += 1;
      judge.promptTokens += response.usage?.prompt_tokens ?? 0;
      judge.completionTokens += response.usage?.completion_tokens ?? 0;
      judge.costUsd += response.cost;
    },
  };
  const cases: EvalCaseResult[] = [];
  for (const evalCase of suite.cases) cases.push(await runCase(suite, evalCase, options, scorerContext));
  return {
    suite: suite.name ?? 'eval',
    createdAt: (options.now?.() ?? new Date()).toISOString(),
    cases,
    ...(judge === undefined ? {} : { judge }),
  };
}
