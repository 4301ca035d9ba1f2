export {
  type BaselineComparison,
  type CaseComparison,
  compareToBaseline,
  loadBaseline,
} from './baseline.js';
export { EvalConversationNotFoundError } from './errors/eval-conversation-not-found-error.js';
export { InvalidEvalBaselineError } from './errors/invalid-eval-baseline-error.js';
export { InvalidEvalOptionError } from './errors/invalid-eval-option-error.js';
export { InvalidEvalSuiteError } from './errors/invalid-eval-suite-error.js';
export { defaultEvalAgent, type EvalAgentContext, type EvalAgentFactory } from './eval-agent.js';
export {
  type EvalCaseResult,
  type EvalReport,
  type EvalRunResult,
  evalCaseResultSchema,
  evalReportSchema,
  evalRunResultSchema,
  type JudgeUsage,
} from './eval-report.js';
export { type EvalRun, type EvalToolCall, evalRunFromEvents } from './eval-run.js';
export { type EvalCase, type EvalSuite, evalCaseSchema, evalSuiteSchema, parseEvalSuite } from './eval-suite.js';
export { renderHtmlReport } from './html-report.js';
export { loadSuite } from './load-suite.js';
export { caseFromConversation, promoteConversation } from './promote.js';
export {
  locateConversation,
  type RecordedConversation,
  readRecordedConversation,
} from './recorded-conversation.js';
export { passAtK, passHatK } from './reliability.js';
export { type ReplayOutcome, replayRecording } from './replay-case.js';
export { type RunEvalSuiteOptions, runEvalSuite } from './run-eval-suite.js';
export { scoreRun } from './score-run.js';
export { costUnder } from './scorers/cost-under.js';
export { durationUnder } from './scorers/duration-under.js';
export { filesWithin } from './scorers/files-within.js';
export { finalAnswerMatches } from './scorers/final-answer.js';
export { llmJudge } from './scorers/llm-judge.js';
export { noErrors } from './scorers/no-errors.js';
export { type ScoreResult, type Scorer, type ScorerContext, scoreResultSchema } from './scorers/scorer.js';
export {
  createScorer,
  type ScorerConfig,
  type ScorerType,
  scorerConfigSchema,
  scorerTypes,
} from './scorers/scorer-config.js';
export { type ExpectedToolCall, type TrajectoryMatch, trajectory } from './scorers/trajectory.js';
