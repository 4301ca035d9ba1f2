import type { ActionEvent, AnyEvent, View } from '@x/events';
import type { StepContext } from '../agent/step-context.js';
import { type ApprovalRules, evaluateApprovalRules } from '../approvals/approval-rules.js';
import type { ConfirmationPolicy } from '../confirmation/confirmation-policy.js';
import { requiresConfirmation } from '../confirmation/requires-confirmation.js';
import type { SecurityAnalyzer } from '../confirmation/security-analyzer.js';
import type { LLM, LLMResponse } from '../llm/llm.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { SecretRegistry } from '../secrets/secret-registry.js';
import type { ConversationState } from '../state/conversation-state.js';
import type { ExecutionStatus } from '../state/execution-status.js';
import type { ConversationFiles, Tool, ToolContext, ToolConversation } from '../tools/tool.js';

/** What a conversation lends the agent for a step (see `StepContext`). */
export interface StepContextSources {
  conversationId: string;
  workspace: string;
  state(): ConversationState;
  view(): Promise<View>;
  emit(event: AnyEvent): Promise<void>;
  publish(event: AnyEvent): void;
  setStatus(status: ExecutionStatus): Promise<void>;
  recordResponse(llm: LLM, response: LLMResponse): Promise<void>;
  pendingActions(): Promise<ActionEvent[]>;
  secrets: SecretRegistry;
  analyzer: SecurityAnalyzer | undefined;
  signal: AbortSignal | undefined;
  takeHookBlock?(actionId: string): Promise<string | undefined>;
  toolConversation?: ToolConversation;
  /** The conversation's own files, lent to tools (the task tracker's TASKS.json). */
  files?: ConversationFiles;
  /** The conversation's sandbox, lent to tools (opened on first call). */
  sandbox?: () => Promise<Sandbox>;
  /** The model the conversation switched to, if it did (`Conversation.switchLLM`). */
  llm?: () => LLM | undefined;
  /** Tools the conversation adds to the agent's (`transfer_to_agent`, `escalate`). */
  conversationTools?: readonly Tool[];
  /** The agent in control did not open the log: it sends its own system prompt. */
  ownSystemPrompt?: boolean;
  /** Approval rules: an action a rule answers waits for it (the run applies it), as do `user-approval` ones. */
  approvalRules?: ApprovalRules;
  /** Whether the conversation was paused: a run's steps start no action after it (see `StepContext.paused`). */
  paused?(): Promise<boolean>;
}

export function createStepContext(sources: StepContextSources): StepContext {
  const { secrets, analyzer, signal } = sources;
  return {
    get state() {
      return sources.state();
    },
    view: () => sources.view(),
    emit: (event) => sources.emit(event),
    publish: (event) => sources.publish(event),
    setStatus: (status) => sources.setStatus(status),
    recordResponse: (llm, response) => sources.recordResponse(llm, response),
    pendingActions: () => sources.pendingActions(),
    requiresConfirmation: (actions) =>
      requiresConfirmation(actions, sources.state().confirmation_policy as ConfirmationPolicy, {
        ...(analyzer === undefined ? {} : { securityAnalyzer: analyzer }),
      }) ||
      actions.some(
        (action) =>
          action.action != null &&
          evaluateApprovalRules(sources.approvalRules ?? [], action).status !== 'not-applicable',
      ),
    toolContext: async (action): Promise<ToolContext> => ({
      workspace: sources.workspace,
      // Secrets go only to the commands that mention them (reference §7.8); with none, the action is not written out.
      env: secrets.empty ? {} : await secrets.envFor(JSON.stringify(action.action ?? {})),
      secretValues: secrets.knownValues(),
      conversationId: sources.conversationId,
      llmResponseId: action.llm_response_id,
      ...(sources.toolConversation === undefined ? {} : { conversation: sources.toolConversation }),
      ...(sources.files === undefined ? {} : { conversationFiles: sources.files }),
      ...(sources.sandbox === undefined ? {} : { sandbox: sources.sandbox }),
      ...(signal === undefined ? {} : { signal }),
    }),
    get llm() {
      return sources.llm?.();
    },
    maskSecrets: (text) => secrets.mask(text),
    securityAnalyzerEnabled: analyzer !== undefined,
    ...(signal === undefined ? {} : { signal }),
    ...(sources.conversationTools === undefined ? {} : { conversationTools: sources.conversationTools }),
    ...(sources.ownSystemPrompt === true ? { ownSystemPrompt: true } : {}),
    ...(sources.takeHookBlock === undefined ? {} : { takeHookBlock: sources.takeHookBlock }),
    ...(sources.paused === undefined ? {} : { paused: sources.paused }),
  };
}
