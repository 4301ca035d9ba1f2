import type { KeyObject } from 'node:crypto';
import { type ActionEvent, createEvent, eventsToMessages, type SystemPromptEvent } from '@x/events';
import type { Condenser } from '../condenser/condenser.js';
import { LLMContextWindowExceededError } from '../llm/errors/llm-context-window-exceeded-error.js';
import { LLMMalformedToolCallError } from '../llm/errors/llm-malformed-tool-call-error.js';
import type { LLM, LLMResponse } from '../llm/llm.js';
import { MCP_TOOL_KIND } from '../mcp/mcp-tool.js';
import { withRecallTool } from '../recall/index.js';
import type { SandboxAccess } from '../sandboxing/sandbox-access.js';
import { markConfirmationWait, traceChat, traceCondense } from '../telemetry/index.js';
import { type ChatTool, toolToChatTool, toolToDefinition } from '../tools/chat-tool.js';
import { finishTool } from '../tools/finish-tool.js';
import { INVOKE_SKILL_TOOL_KIND } from '../tools/invoke-skill-tool.js';
import { thinkTool } from '../tools/think-tool.js';
import type { Tool } from '../tools/tool.js';
import { assertUniqueToolNames, claimedToolNames } from '../tools/tool-names.js';
import { AgentExtensions, type ExtensionsStart } from './agent-extensions.js';
import type { AgentOptions } from './agent-options.js';
import { executeActions } from './execute-actions.js';
import { actionsFromResponse } from './response-actions.js';
import type { StepContext } from './step-context.js';
import { DEFAULT_SYSTEM_PROMPT } from './system-prompt.js';
import { withSystemPrompt } from './with-system-prompt.js';

/** Sent (as a user-role environment message) after a reply with neither text nor tool calls (reference §9.1). */
export const EMPTY_REPLY_NUDGE =
  'Your last response did not include a function call or a message. Please use a tool to proceed with the task.';

/**
 * The agent: a model, its tools and a system prompt. `step` performs one step of the reference's loop
 * (§9.1): execute pending actions, or condense, or ask the model once and act on its reply.
 */
export class Agent {
  /** What it is for, shown to the agents that can transfer control to it. */
  readonly description: string | undefined;
  readonly llm: LLM;
  /** Recorded with each run's start and end (a sub-agent's is its agent type). */
  readonly name: string;
  #tools: readonly Tool[];
  /** MCP servers and skills; started by `startExtensions`. */
  readonly extensions: AgentExtensions;
  readonly systemPrompt: string;
  readonly dynamicContext: string | undefined;
  readonly condenser: Condenser | undefined;
  readonly stream: boolean;
  /** Signs the events of this agent's conversations (see `AgentOptions.signingKey`). */
  readonly signingKey: KeyObject | undefined;
  /** The tools' LLM schemas, with and without the `security_risk` argument (built once each). */
  readonly #chatTools = new Map<boolean, ChatTool[]>();

  constructor(options: AgentOptions) {
    this.description = options.description;
    this.llm = options.llm;
    this.name = options.name ?? 'agent';
    const tools = withRecallTool(options.tools ?? [], options);
    for (const builtin of [finishTool, thinkTool]) {
      if (!tools.some((tool) => tool.name === builtin.name)) tools.push(builtin);
    }
    // The model must never be offered two tools of one name: the last one would silently take the calls.
    assertUniqueToolNames(tools);
    this.#tools = Object.freeze(tools);
    this.extensions = new AgentExtensions(options);
    this.systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
    this.dynamicContext = options.dynamicContext;
    this.condenser = options.condenser;
    this.stream = options.stream ?? false;
    this.signingKey = options.signingKey;
  }

  /** The tools offered to the model: the given ones, then those of the MCP servers once started. */
  get tools(): readonly Tool[] {
    return this.#tools;
  }

  /**
   * Starts the MCP servers and loads the workspace's skills (once per agent; later calls return the first result).
   * Servers or skill files that fail are returned as errors for the conversation to record.
   */
  async startExtensions(workspace: string, sandbox?: SandboxAccess): Promise<ExtensionsStart> {
    const started = await this.extensions.start(workspace, claimedToolNames(this.#tools), sandbox);
    const missing = started.tools.filter((tool) => !this.#tools.includes(tool));
    if (missing.length > 0) {
      this.#tools = Object.freeze([...this.#tools, ...missing]);
      this.#chatTools.clear();
    }
    return started;
  }

  /** The usage ids the agent's models spend under: its LLM's, then its condenser's (e.g. `condenser`). */
  usageIds(): string[] {
    return [this.llm.usageId, ...(this.condenser?.usageIds?.() ?? [])];
  }

  /** The first event of every conversation: the prompt and the tool definitions (with the conversation's own). */
  systemPromptEvent(conversationTools: readonly Tool[] = []): SystemPromptEvent {
    const dynamic = [this.dynamicContext, this.extensions.systemContext()].filter((part) => part !== undefined);
    return createEvent('SystemPromptEvent', {
      system_prompt: { type: 'text', text: this.systemPrompt },
      tools: [...this.tools, ...conversationTools].map((tool) => toolToDefinition(tool)),
      ...(dynamic.length === 0 ? {} : { dynamic_context: { type: 'text', text: dynamic.join('\n\n') } }),
    });
  }

  /** The agent as the reference serializes it in base_state.json (secrets never included). */
  toJSON(): Record<string, unknown> {
    return {
      llm: { model: this.llm.model, api_key: '**********', usage_id: this.llm.usageId },
      tools: this.tools
        .filter(
          (tool) =>
            tool.name !== 'finish' &&
            tool.name !== 'think' &&
            tool.toolKind !== INVOKE_SKILL_TOOL_KIND &&
            tool.toolKind !== MCP_TOOL_KIND,
        )
        .map((tool) => ({ name: tool.name, params: {} })),
      // The reference's built-ins are named by class here, not in `tools` (its tool registry does not know them).
      include_default_tools: [
        'FinishTool',
        'ThinkTool',
        ...(this.tools.some((tool) => tool.toolKind === INVOKE_SKILL_TOOL_KIND) ? [INVOKE_SKILL_TOOL_KIND] : []),
      ],
      system_prompt: this.systemPrompt,
      ...(this.condenser === undefined ? {} : { condenser: this.condenser.toJSON() }),
      ...this.extensions.toJSON(),
      kind: 'Agent',
    };
  }

  chatTools(securityAnalyzerEnabled: boolean): ChatTool[] {
    let tools = this.#chatTools.get(securityAnalyzerEnabled);
    if (tools === undefined) {
      tools = this.tools.map((tool) => toolToChatTool(tool, { withSecurityRisk: securityAnalyzerEnabled }));
      this.#chatTools.set(securityAnalyzerEnabled, tools);
    }
    return tools;
  }

  /** Its tools and those the conversation adds for this step. */
  #toolsFor(context: StepContext): readonly Tool[] {
    const extra = context.conversationTools ?? [];
    return extra.length === 0 ? this.tools : [...this.tools, ...extra];
  }

  #chatToolsFor(context: StepContext): ChatTool[] {
    const own = this.chatTools(context.securityAnalyzerEnabled);
    const extra = context.conversationTools ?? [];
    if (extra.length === 0) return own;
    return [
      ...own,
      ...extra.map((tool) => toolToChatTool(tool, { withSecurityRisk: context.securityAnalyzerEnabled })),
    ];
  }

  async step(context: StepContext): Promise<void> {
    const pending = await context.pendingActions();
    if (pending.length > 0) {
      await executeActions(context, this.#toolsFor(context), pending);
      return;
    }

    // A conversation may have switched the model (recorded in its log); the agent's own is the default.
    const llm = context.llm ?? this.llm;
    let view = await context.view();
    if (this.condenser !== undefined) {
      const condenser = this.condenser;
      const condensed = await traceCondense(condenser.constructor.name, () =>
        condenser.condense(view, {
          llm,
          recordResponse: (llm, response) => context.recordResponse(llm, response),
        }),
      );
      if (!('events' in condensed)) {
        await context.emit(condensed);
        return;
      }
      view = condensed;
    }

    // Each provider renders the event-level messages for its own API.
    // Control transferred to this agent: the model gets its prompt, not the log's first agent's. A branch with no
    // SystemPromptEvent (one started at the root by navigateTo(null)) gets this agent's too: the model is never
    // called without its instructions and tools described.
    const events =
      context.ownSystemPrompt || !view.events.some((event) => event.kind === 'SystemPromptEvent')
        ? withSystemPrompt(view.events, this.systemPromptEvent(context.conversationTools))
        : view.events;
    const messages = eventsToMessages(events);
    let response: LLMResponse;
    try {
      response = await traceChat(
        llm,
        {
          messages,
          tools: this.#chatToolsFor(context),
          ...(context.signal === undefined ? {} : { signal: context.signal }),
          ...(this.stream
            ? { onDelta: (delta) => context.publish(createEvent('StreamingDeltaEvent', { ...delta })) }
            : {}),
        },
        (request) => llm.complete(request),
      );
    } catch (error) {
      if (error instanceof LLMContextWindowExceededError && this.condenser?.handlesCondensationRequests()) {
        await context.emit(createEvent('CondensationRequest', {}));
        return;
      }
      // A tool call the provider could not deliver takes the path of any invalid call: the model is told, and retries.
      if (!LLMMalformedToolCallError.isInstance(error)) throw error;
      response = error.response;
    }
    await context.recordResponse(llm, response);

    if ((response.message.tool_calls ?? []).length > 0) {
      await this.actOnToolCalls(context, response);
      return;
    }
    await context.emit(
      createEvent('MessageEvent', { source: 'agent', llm_message: response.message, llm_response_id: response.id }),
    );
    const hasText = response.message.content.some((part) => part.type === 'text' && part.text.trim() !== '');
    if (hasText) {
      await context.setStatus('finished');
    } else {
      await context.emit(
        createEvent('MessageEvent', {
          source: 'environment',
          llm_message: { role: 'user', content: [{ type: 'text', text: EMPTY_REPLY_NUDGE }] },
        }),
      );
    }
  }

  private async actOnToolCalls(context: StepContext, response: LLMResponse): Promise<void> {
    const actions: ActionEvent[] = [];
    const tools = this.#toolsFor(context);
    for (const event of actionsFromResponse(response, tools, context.securityAnalyzerEnabled)) {
      await context.emit(event);
      if (event.kind === 'ActionEvent' && event.action !== undefined) actions.push(event);
    }
    if (actions.length === 0) return;
    if (context.requiresConfirmation(actions)) {
      markConfirmationWait(actions);
      await context.setStatus('waiting_for_confirmation');
      return;
    }
    await executeActions(context, tools, actions);
  }
}
