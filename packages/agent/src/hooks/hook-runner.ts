import { createEvent, type HookExecutionEvent } from '@x/events';
import type { Sandbox } from '../sandbox/sandbox.js';
import { traceHook } from '../telemetry/index.js';
import {
  type HookConfig,
  type HookConfigInput,
  type HookDefinition,
  hookDisplayCommand,
  isHookConfigEmpty,
  parseHookConfig,
} from './hook-config.js';
import { type HookEventType, hookConfigFields } from './hook-event-type.js';
import type { HookInput } from './hook-input.js';
import { hookMatcherMatches } from './hook-matcher.js';
import { blockingReason, type HookResult, truncateHookLog } from './hook-result.js';
import { runHook } from './run-hook.js';

export interface HookRunnerOptions {
  /** A parsed configuration or one as written (`.openhands/hooks.json` shape, functions allowed). */
  config: HookConfig | HookConfigInput;
  /** Working directory of command hooks, and `working_dir` / `OPENHANDS_PROJECT_DIR`. */
  workspace: string;
  /** `session_id` / `OPENHANDS_SESSION_ID`: the conversation id. */
  sessionId: string;
  /** Variables added to every hook process's minimal environment. */
  env?: Readonly<Record<string, string>>;
  /** Where command hooks run (see `RunHookOptions.sandbox`). */
  sandbox?: () => Promise<Sandbox>;
}

/** What a hook point is about. */
export interface HookRunRequest {
  toolName?: string;
  toolInput?: Record<string, unknown>;
  toolResponse?: Record<string, unknown>;
  message?: string;
  metadata?: Record<string, unknown>;
  /** Recorded in the HookExecutionEvents. */
  actionId?: string;
  messageId?: string;
  hookInput?: Record<string, unknown>;
}

export interface HookRunOutcome {
  /** One HookExecutionEvent per hook that ran, in order (to be appended to the log). */
  events: HookExecutionEvent[];
  results: HookResult[];
  blocked: boolean;
  /** Why it was blocked (the first blocking hook's reason or stderr). */
  reason?: string;
  /** The hooks' `additionalContext`, joined by newlines. */
  additionalContext?: string;
}

/** Event types whose hooks stop at the first block (the reference's `stop_on_block`). */
const BLOCKING: ReadonlySet<HookEventType> = new Set(['PreToolUse', 'UserPromptSubmit', 'Stop']);

/**
 * Runs the hooks configured for one moment of a conversation and turns each run into a
 * HookExecutionEvent. It knows nothing of the conversation: the caller decides what a block means.
 */
export class HookRunner {
  readonly config: HookConfig;
  readonly #options: HookRunnerOptions;

  constructor(options: HookRunnerOptions) {
    // Parsing is idempotent, so an already parsed configuration passes through unchanged.
    this.config = parseHookConfig(options.config);
    this.#options = options;
  }

  get isEmpty(): boolean {
    return isHookConfigEmpty(this.config);
  }

  /** The hooks that apply to an event type (and tool), in configuration order. */
  hooksFor(type: HookEventType, toolName?: string): HookDefinition[] {
    return this.config[hookConfigFields[type]]
      .filter((matcher) => hookMatcherMatches(matcher.matcher, toolName))
      .flatMap((matcher) => matcher.hooks);
  }

  async run(type: HookEventType, request: HookRunRequest = {}): Promise<HookRunOutcome> {
    const hooks = this.hooksFor(type, request.toolName);
    if (hooks.length === 0) return { events: [], results: [], blocked: false };
    const input: HookInput = {
      event_type: type,
      tool_name: request.toolName ?? null,
      tool_input: request.toolInput ?? null,
      tool_response: request.toolResponse ?? null,
      message: request.message ?? null,
      session_id: this.#options.sessionId,
      working_dir: this.#options.workspace,
      metadata: request.metadata ?? {},
    };
    const runOptions = {
      workspace: this.#options.workspace,
      ...(this.#options.env === undefined ? {} : { env: this.#options.env }),
      ...(this.#options.sandbox === undefined ? {} : { sandbox: this.#options.sandbox }),
    };
    const results: HookResult[] = [];
    const events: HookExecutionEvent[] = [];
    for (const hook of hooks) {
      const { result, event } = await traceHook(type, async () => {
        const result = await runHook(hook, input, runOptions);
        return { result, event: hookExecutionEvent(type, hook, result, request) };
      });
      results.push(result);
      events.push(event);
      if (BLOCKING.has(type) && result.blocked) break;
    }
    const blocked = results.some((result) => result.blocked);
    const reason = blocked ? blockingReason(results) : undefined;
    const context = results.flatMap((result) => (result.additional_context ? [result.additional_context] : []));
    return {
      events,
      results,
      blocked,
      ...(reason === undefined ? {} : { reason }),
      ...(context.length === 0 ? {} : { additionalContext: context.join('\n') }),
    };
  }
}

function hookExecutionEvent(
  type: HookEventType,
  hook: HookDefinition,
  result: HookResult,
  request: HookRunRequest,
): HookExecutionEvent {
  return createEvent('HookExecutionEvent', {
    hook_event_type: type,
    hook_command: hookDisplayCommand(hook),
    ...(request.toolName === undefined ? {} : { tool_name: request.toolName }),
    success: result.success,
    blocked: result.blocked,
    exit_code: result.exit_code,
    stdout: truncateHookLog(result.stdout),
    stderr: truncateHookLog(result.stderr),
    ...(result.reason === undefined ? {} : { reason: truncateHookLog(result.reason) }),
    ...(result.additional_context === undefined
      ? {}
      : { additional_context: truncateHookLog(result.additional_context) }),
    ...(result.error === undefined ? {} : { error: truncateHookLog(result.error) }),
    ...(request.actionId === undefined ? {} : { action_id: request.actionId }),
    ...(request.messageId === undefined ? {} : { message_id: request.messageId }),
    ...(request.hookInput === undefined ? {} : { hook_input: request.hookInput }),
  });
}
