import { AgentError } from '@x/agent';
import { workspaceProblemStatus } from '../workspace/file-system-failure.js';
import { llmErrorStatus } from './llm-error-status.js';

/**
 * How an `AgentError` is answered over HTTP, by its `code` (subclasses are told apart by code: `isInstance` of a
 * subclass checks only the package marker). `loc`: where a 422 says the problem is; `withCode`: the body names the
 * code too (a client tells these refusals apart by it); `detail`: a fixed text instead of the error's message.
 */
interface AgentErrorAnswer {
  status: number;
  loc?: readonly string[];
  withCode?: boolean;
  detail?: string;
  /** An LLM provider's failure: logged as a warning, as the provider's trouble is worth seeing. */
  llm?: boolean;
}

const AGENT_ERROR_ANSWERS: Readonly<Record<string, AgentErrorAnswer>> = {
  conversation_running: {
    status: 409,
    detail: 'Conversation already running. Wait for completion or pause first.',
  },
  unknown_event: { status: 404 },
  unknown_artifact: { status: 404 },
  conversation_exists: { status: 409 },
  artifact_damaged: { status: 409 },
  decision_record_damaged: { status: 409, withCode: true },
  // The log lost an event in its middle: the conversation is readable, but nothing can be recorded until an operator
  // restores the file or resumes it with `repairLogGap` (the CLI's `--repair-log-gap`). The state's, not the server's.
  conversation_log_gap: { status: 409, withCode: true },
  no_condenser: { status: 400 },
  no_user_message: { status: 400 },
  sandbox_unavailable: { status: 503, withCode: true },
  // The host gives no way to enforce a limit of the policy (a root server without a pids cgroup): the server's, not the request's.
  sandbox_limit_unavailable: { status: 503, withCode: true },
  sandbox_policy_invalid: { status: 422, loc: ['body', 'sandbox'] },
  invalid_budget: { status: 422, loc: ['body', 'budget'] },
  decision_conflict: { status: 409, withCode: true },
  action_not_pending: { status: 409, withCode: true },
  // A step (condense) would execute actions that wait for a decision: they are decided first.
  actions_await_decision: { status: 409, withCode: true },
  principal_not_allowed: { status: 403, withCode: true },
  invalid_decision: { status: 422, loc: ['body', 'decisions'] },
  tool_name_collision: { status: 422, loc: ['body'] },
  invalid_confirmation_policy: { status: 422, loc: ['body'] },
  invalid_secrets: { status: 422, loc: ['body'] },
  invalid_artifact_name: { status: 422, loc: ['body'] },
  invalid_state_delta: { status: 422, loc: ['body'] },
  invalid_usage_id: { status: 422, loc: ['body'] },
};

/**
 * The HTTP answer of an agent error a request caused, or undefined for one that is the server's (a 500). LLM
 * failures answer as gateway errors (see llm-error-status.ts); a workspace path by its problem.
 */
export function agentErrorAnswer(error: unknown): AgentErrorAnswer | undefined {
  if (!AgentError.isInstance(error)) return undefined;
  if (error.code === 'workspace_path') {
    const problem = (error as { problem?: keyof typeof workspaceProblemStatus }).problem;
    return { status: workspaceProblemStatus[problem ?? 'invalid'] ?? 400 };
  }
  if (Object.hasOwn(AGENT_ERROR_ANSWERS, error.code)) return AGENT_ERROR_ANSWERS[error.code];
  const llm = llmErrorStatus(error.code);
  return llm === undefined ? undefined : { status: llm.status, withCode: true, detail: llm.detail, llm: true };
}

/**
 * The HTTP status any error stands for, as every face maps it (REST, A2A, OpenAI, MCP): a server or store error's
 * own `statusCode`, an agent error's by its code, undefined for an unexpected one (a 500). Without this, an agent
 * refusal such as `principal_not_allowed` reached the faces that read only `statusCode` as an internal error.
 */
export function errorStatus(error: unknown): number | undefined {
  const answer = agentErrorAnswer(error);
  if (answer !== undefined) return answer.status;
  if (AgentError.isInstance(error)) return undefined;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined;
}
