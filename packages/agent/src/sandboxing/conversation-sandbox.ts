import { resolve } from 'node:path';
import type { FileStore } from '@x/store';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { SandboxPolicy } from '../sandbox/sandbox-policy.js';
import type { SandboxAccess } from './sandbox-access.js';
import type { SandboxOpener } from './sandbox-opener.js';
import { recordSandboxPolicy } from './sandbox-policy-record.js';

/**
 * A conversation's sandbox: opened once, on first need (a terminal command, a hook, an MCP server), so the start
 * is paid once per conversation and opening a conversation to read it starts nothing; `dispose()` ends it and
 * everything started in it. A failed open is not remembered: the next need tries again.
 */
export class ConversationSandbox implements SandboxAccess {
  readonly policy: SandboxPolicy;
  /** The conversation's workspace as given (a relative one is opened from the current directory). */
  readonly workspace: string;
  readonly #open: SandboxOpener;
  readonly #onOpened: ((sandbox: Sandbox) => Promise<void>) | undefined;
  #sandbox: Promise<Sandbox> | undefined;

  constructor(options: {
    policy: SandboxPolicy;
    workspace: string;
    open: SandboxOpener;
    /** Called each time the sandbox was opened (the conversation records the policy then). */
    onOpened?: (sandbox: Sandbox) => Promise<void>;
  }) {
    this.policy = options.policy;
    this.workspace = options.workspace;
    this.#open = options.open;
    this.#onOpened = options.onOpened;
  }

  /** The sandbox, opened on the first call. */
  get(): Promise<Sandbox> {
    this.#sandbox ??= (async () => {
      const sandbox = await this.#open({ policy: this.policy, workspace: resolve(this.workspace) });
      try {
        await this.#onOpened?.(sandbox);
      } catch (error) {
        await sandbox.dispose().catch(() => undefined);
        throw error;
      }
      return sandbox;
    })().catch((error: unknown) => {
      this.#sandbox = undefined;
      throw error;
    });
    return this.#sandbox;
  }

  /**
   * Opens a sandbox of another policy in the same workspace (an MCP server allowed more than the conversation);
   * the caller disposes it.
   */
  openWith(policy: SandboxPolicy): Promise<Sandbox> {
    return this.#open({ policy, workspace: resolve(this.workspace) });
  }

  /** Ends the sandbox and everything started in it. A later `get` opens a new one. */
  async dispose(): Promise<void> {
    const opened = this.#sandbox;
    this.#sandbox = undefined;
    if (opened === undefined) return;
    const sandbox = await opened.catch(() => undefined);
    await sandbox?.dispose();
  }
}

/** A conversation's sandbox that records its policy in the conversation's directory each time it is opened. */
export function createConversationSandbox(options: {
  policy: SandboxPolicy;
  workspace: string;
  open: SandboxOpener;
  record: { store: FileStore; directory: string; sinceEvent: () => number };
}): ConversationSandbox {
  const { policy, record } = options;
  return new ConversationSandbox({
    policy,
    workspace: options.workspace,
    open: options.open,
    onOpened: () => recordSandboxPolicy(record.store, record.directory, { policy, sinceEvent: record.sinceEvent() }),
  });
}
