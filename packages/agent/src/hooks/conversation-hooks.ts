import {
  type ActionEvent,
  type AnyEvent,
  createEvent,
  type HookExecutionEvent,
  type MessageEvent,
  type ObservationEvent,
} from '@x/events';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { HookConfig, HookConfigInput } from './hook-config.js';
import { HookRunner } from './hook-runner.js';

/** Prefix of the message a blocking Stop hook sends back to the agent (reference `[Stop hook feedback]`). */
export const STOP_HOOK_FEEDBACK_PREFIX = '[Stop hook feedback]';

export interface ConversationHooksDeps {
  runner: HookRunner;
  /** Appends an event without running hooks on it (the HookExecutionEvents themselves). */
  record(event: AnyEvent): Promise<void>;
  /** The ActionEvent an observation answers, for PostToolUse's `tool_input`. */
  actionById(id: string): Promise<ActionEvent | undefined>;
  /** Records in the conversation's state that a hook blocked this action (persisted; the step answers it). */
  blockAction(actionId: string, reason: string): Promise<void>;
  /** Records in the conversation's state that a hook blocked this user message (persisted). */
  blockMessage(messageId: string, reason: string): Promise<void>;
}

/**
 * Where a conversation calls its hooks, mirroring the reference's HookEventProcessor: before an event is
 * appended (PreToolUse for an ActionEvent, PostToolUse for an ObservationEvent, UserPromptSubmit for a user
 * message), when a session starts and ends, and when the agent wants to stop. Every hook run is recorded as
 * a HookExecutionEvent ahead of the event it is about, as the reference's log has it.
 *
 * Blocks are recorded in the conversation's state (`blocked_actions` / `blocked_messages`, as the reference's
 * state has them), so they survive a restart: the step pops them, answering a blocked action with a
 * UserRejectObservation (`rejection_source: "hook"`) instead of running it, and finishing on a blocked user
 * message without calling the model.
 */
export class ConversationHooks {
  readonly runner: HookRunner;
  readonly #deps: ConversationHooksDeps;
  #sessionStarted = false;

  constructor(deps: ConversationHooksDeps) {
    this.runner = deps.runner;
    this.#deps = deps;
  }

  /** Runs the hooks due before `event` is appended; returns the event to append (context may be added). */
  async beforeAppend(event: AnyEvent): Promise<AnyEvent> {
    if (event.kind === 'ActionEvent' && event.action !== undefined) {
      await this.#preToolUse(event);
      return event;
    }
    if (event.kind === 'ObservationEvent') {
      await this.#postToolUse(event);
      return event;
    }
    if (event.kind === 'MessageEvent' && event.source === 'user') return this.#userPromptSubmit(event);
    return event;
  }

  /** Runs SessionStart hooks the first time it is called. */
  async sessionStart(): Promise<void> {
    if (this.#sessionStarted) return;
    this.#sessionStarted = true;
    await this.#record((await this.runner.run('SessionStart')).events);
  }

  /** Runs SessionEnd hooks when a session was started. */
  async sessionEnd(): Promise<void> {
    if (!this.#sessionStarted) return;
    this.#sessionStarted = false;
    await this.#record((await this.runner.run('SessionEnd')).events);
  }

  /**
   * Runs Stop hooks when the agent has finished. Returns whether the agent may stop; when a hook blocks, the
   * feedback (the hooks' additional context, else the reason) is returned to be sent to the agent.
   */
  async stop(reason: string): Promise<{ shouldStop: true } | { shouldStop: false; feedback?: MessageEvent }> {
    const outcome = await this.runner.run('Stop', { metadata: { reason }, hookInput: { reason } });
    await this.#record(outcome.events);
    if (!outcome.blocked) return { shouldStop: true };
    const text = outcome.additionalContext ?? outcome.reason;
    if (text === undefined) return { shouldStop: false };
    return {
      shouldStop: false,
      feedback: createEvent('MessageEvent', {
        source: 'environment',
        llm_message: { role: 'user', content: [{ type: 'text', text: `${STOP_HOOK_FEEDBACK_PREFIX} ${text}` }] },
      }),
    };
  }

  async #preToolUse(event: ActionEvent): Promise<void> {
    const toolInput = { ...(event.action as Record<string, unknown>) };
    const outcome = await this.runner.run('PreToolUse', {
      toolName: event.tool_name,
      toolInput,
      actionId: event.id,
      hookInput: { tool_name: event.tool_name, tool_input: toolInput },
    });
    await this.#record(outcome.events);
    if (outcome.blocked) await this.#deps.blockAction(event.id, outcome.reason ?? 'Blocked by hook');
  }

  async #postToolUse(event: ObservationEvent): Promise<void> {
    if (this.runner.hooksFor('PostToolUse', event.tool_name).length === 0) return;
    const action = await this.#deps.actionById(event.action_id);
    if (action === undefined) return;
    const toolInput = { ...((action.action ?? {}) as Record<string, unknown>) };
    const toolResponse = { ...(event.observation as Record<string, unknown>) };
    const outcome = await this.runner.run('PostToolUse', {
      toolName: event.tool_name,
      toolInput,
      toolResponse,
      actionId: action.id,
      hookInput: { tool_name: event.tool_name, tool_input: toolInput, tool_response: toolResponse },
    });
    await this.#record(outcome.events);
  }

  async #userPromptSubmit(event: MessageEvent): Promise<MessageEvent> {
    if (this.runner.hooksFor('UserPromptSubmit').length === 0) return event;
    const message = event.llm_message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    const outcome = await this.runner.run('UserPromptSubmit', {
      message,
      messageId: event.id,
      hookInput: { message },
    });
    await this.#record(outcome.events);
    if (outcome.blocked) await this.#deps.blockMessage(event.id, outcome.reason ?? 'Blocked by hook');
    if (outcome.additionalContext === undefined) return event;
    // Same id, so the HookExecutionEvent's message_id names the message that is appended.
    return createEvent('MessageEvent', {
      ...event,
      extended_content: [...event.extended_content, { type: 'text', text: outcome.additionalContext }],
    });
  }

  async #record(events: readonly HookExecutionEvent[]): Promise<void> {
    for (const event of events) await this.#deps.record(event);
  }
}

/** The hooks of a conversation, or `undefined` when none are configured (then nothing runs and nothing is recorded). */
export function createConversationHooks(options: {
  hooks: HookConfig | HookConfigInput | undefined;
  hookEnv: Readonly<Record<string, string>> | undefined;
  sessionId: string;
  workspace: string;
  /** The conversation's sandbox, where command hooks run. */
  sandbox?: () => Promise<Sandbox>;
  record(event: AnyEvent): Promise<void>;
  lookup(id: string): Promise<AnyEvent | undefined>;
  blockAction(actionId: string, reason: string): Promise<void>;
  blockMessage(messageId: string, reason: string): Promise<void>;
}): ConversationHooks | undefined {
  if (options.hooks === undefined) return undefined;
  const runner = new HookRunner({
    config: options.hooks,
    workspace: options.workspace,
    sessionId: options.sessionId,
    ...(options.hookEnv === undefined ? {} : { env: options.hookEnv }),
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
  });
  if (runner.isEmpty) return undefined;
  return new ConversationHooks({
    runner,
    record: options.record,
    blockAction: options.blockAction,
    blockMessage: options.blockMessage,
    actionById: async (id) => {
      const event = await options.lookup(id);
      return event?.kind === 'ActionEvent' ? event : undefined;
    },
  });
}
