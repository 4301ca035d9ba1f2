import type { AnyEvent, Message } from '@x/events';
import type { Agent } from '../agent/agent.js';
import { type ConversationHooks, createConversationHooks } from '../hooks/conversation-hooks.js';
import { hookConfigToJSON } from '../hooks/hook-config.js';
import type { SandboxAccess } from '../sandboxing/sandbox-access.js';
import { maskStrings } from '../secrets/internal/mask-strings.js';
import type { ConversationOptions, SendMessageOptions } from './conversation-options.js';
import { startExtensions, userMessageEvent } from './start-extensions.js';

/** What a conversation lends its hooks, MCP servers and skills. */
export interface ExtensionsHost {
  readonly id: string;
  readonly agent: Agent;
  readonly workspace: string;
  readonly sandbox: SandboxAccess;
  emit(event: AnyEvent): Promise<void>;
  /** Masks the conversation's secrets in a text. */
  mask(text: string): string;
  lookup(eventId: string): Promise<AnyEvent | undefined>;
  blockAction(actionId: string, reason: string): Promise<void>;
  blockMessage(messageId: string, reason: string): Promise<void>;
}

/**
 * A conversation's extensions: its hooks (created with it), the agent's MCP servers and skills (started once
 * per conversation, failures recorded) and the skills its user messages activated.
 */
export class ConversationExtensions {
  readonly hooks: ConversationHooks | undefined;
  readonly #host: ExtensionsHost;
  #started = false;
  /** Skills activated in this conversation (each activates once, reference §8.2): recorded ones and this process's. */
  readonly #activatedSkills = new Set<string>();
  readonly #beforeStart: (() => Promise<void>) | undefined;

  /**
   * `beforeStart` runs once, when the extensions start (before the first user message or run), after the agent's
   * own extensions started (its prompt lists their tools) and before their failures are recorded: a resumed
   * conversation writes its missing system prompt there (`writeMissingSystemPrompt`), where `create` writes it.
   * `activatedSkills`: the skills base_state.json records as activated (the reference's `activated_knowledge_skills`,
   * which it never activates again in the conversation): they are not activated again either.
   */
  constructor(
    host: ExtensionsHost,
    options: Pick<ConversationOptions, 'hooks' | 'hookEnv'>,
    resumed: { beforeStart?: () => Promise<void>; activatedSkills?: readonly string[] } = {},
  ) {
    this.#host = host;
    this.#beforeStart = resumed.beforeStart;
    for (const name of resumed.activatedSkills ?? []) this.#activatedSkills.add(name);
    this.hooks = createConversationHooks({
      hooks: options.hooks,
      hookEnv: options.hookEnv,
      sessionId: host.id,
      workspace: host.workspace,
      sandbox: () => host.sandbox.get(),
      // A hook's output is stored like a tool's, so it is masked like one (stdout, stderr, reason, its input…).
      record: (event) =>
        host.emit(event.kind === 'HookExecutionEvent' ? maskStrings(event, (text) => host.mask(text)) : event),
      lookup: (id) => host.lookup(id),
      blockAction: (id, reason) => host.blockAction(id, reason),
      blockMessage: (id, reason) => host.blockMessage(id, reason),
    });
  }

  /** Starts the agent's MCP servers and skills once per conversation, recording their failures. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    const host = this.#host;
    if (this.#beforeStart !== undefined) {
      await host.agent.startExtensions(host.workspace, host.sandbox);
      await this.#beforeStart();
    }
    await startExtensions(host.agent, host.workspace, (event) => host.emit(event), host.sandbox);
  }

  /** Starts the extensions and the hooks' session: before a user message or a run. */
  async startSession(): Promise<void> {
    await this.start();
    await this.hooks?.sessionStart();
  }

  /** Ends the hooks' session (at close); a failing hook does not keep the conversation open. */
  async endSession(): Promise<void> {
    await this.hooks?.sessionEnd().catch(() => undefined);
  }

  /** The skills activated in the conversation, in order (base_state.json's `activated_knowledge_skills`). */
  get activatedSkills(): readonly string[] {
    return [...this.#activatedSkills];
  }

  /** A user MessageEvent with the skills its text activates (each once per conversation). */
  userMessage(message: Message, options: SendMessageOptions): AnyEvent {
    return userMessageEvent(this.#host.agent, message, { ...options, activated: this.#activatedSkills });
  }

  /** Appends an event after the hooks due before it ran (they may add context to a user message). */
  async emitWithHooks(event: AnyEvent): Promise<void> {
    await this.#host.emit(this.hooks === undefined ? event : await this.hooks.beforeAppend(event));
  }

  /** The hook configuration as base_state.json keeps it (null without hooks). */
  hookConfigJSON(): ReturnType<typeof hookConfigToJSON> | null {
    return this.hooks === undefined ? null : hookConfigToJSON(this.hooks.runner.config);
  }
}
