import { resolve } from 'node:path';
import type { FileStore } from '@x/store';
import { readMountInfo } from '../sandbox/internal/mount-table-read.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { SandboxPolicy } from '../sandbox/sandbox-policy.js';
import { SandboxUnavailableError } from '../sandbox/sandbox-unavailable-error.js';
import { guardEachCommand } from './guard-each-command.js';
import type { SandboxAccess } from './sandbox-access.js';
import type { SandboxOpener } from './sandbox-opener.js';
import { recordSandboxPolicy } from './sandbox-policy-record.js';
import { assertStoreOutsideSandbox } from './store-outside-sandbox.js';

/**
 * A conversation's sandbox: opened once, on first need (a terminal command, a hook, an MCP server), so the start
 * is paid once per conversation and a conversation whose tools start no process never probes bubblewrap;
 * `dispose()` ends it and everything started in it. A failed open is not cached: the next need tries again. A
 * `SandboxUnavailableError` is kept until an open succeeds, so that a run fails with it even where the part that
 * needed the sandbox reports failures without throwing (a hook, an MCP server's start).
 */
export class ConversationSandbox implements SandboxAccess {
  readonly policy: SandboxPolicy;
  /** The conversation's workspace as given (a relative one is opened from the current directory). */
  readonly workspace: string;
  readonly #open: SandboxOpener;
  readonly #onRecord: (() => Promise<void>) | undefined;
  readonly #guard: ((policy: SandboxPolicy, workspace: string) => Promise<void>) | undefined;
  #sandbox: Promise<Sandbox> | undefined;
  #unavailable: SandboxUnavailableError | undefined;

  constructor(options: {
    policy: SandboxPolicy;
    workspace: string;
    open: SandboxOpener;
    /** Records the policy: each time the sandbox was opened, and on `recordPolicy()`. */
    onRecord?: () => Promise<void>;
    /**
     * Refuses (throws) a policy in a workspace: before any sandbox of it is opened, and again on the paths of the
     * sandbox opened (see `#opened`).
     */
    guard?: (policy: SandboxPolicy, workspace: string) => Promise<void>;
  }) {
    this.policy = options.policy;
    this.workspace = options.workspace;
    this.#open = options.open;
    this.#onRecord = options.onRecord;
    this.#guard = options.guard;
  }

  async #opened(policy: SandboxPolicy): Promise<Sandbox> {
    const workspace = resolve(this.workspace);
    await this.#guard?.(policy, workspace);
    const sandbox = await this.#open({ policy, workspace });
    const guard = this.#guard;
    if (guard === undefined || policy.mode === 'unsandboxed') return sandbox;
    // Again on the paths the sandbox mounts (each resolved as it opened, and held to that at every command): one made
    // a symlink to the store since the check above, by a command of another sandbox, is refused here.
    const table = readMountInfo();
    const guardOpened = () => guard(sandbox.policy, sandbox.workspace);
    try {
      await guardOpened();
    } catch (error) {
      await sandbox.dispose().catch(() => undefined);
      throw error;
    }
    // And before each command once mounts changed: a bind of the store made after the open.
    return guardEachCommand(sandbox, guardOpened, table);
  }

  /** The sandbox, opened on the first call. */
  get(): Promise<Sandbox> {
    this.#sandbox ??= (async () => {
      const sandbox = await this.#opened(this.policy);
      try {
        await this.#onRecord?.();
      } catch (error) {
        await sandbox.dispose().catch(() => undefined);
        throw error;
      }
      this.#unavailable = undefined;
      return sandbox;
    })().catch((error: unknown) => {
      this.#sandbox = undefined;
      this.#noteUnavailable(error);
      throw error;
    });
    return this.#sandbox;
  }

  /**
   * Opens a sandbox of another policy in the same workspace (an MCP server allowed more than the conversation);
   * the caller disposes it.
   */
  openWith(policy: SandboxPolicy): Promise<Sandbox> {
    return this.#opened(policy).catch((error: unknown) => {
      this.#noteUnavailable(error);
      throw error;
    });
  }

  /**
   * Records the policy as in force from now without opening the sandbox (a new conversation, a run's start), as
   * opening it would: where the sandbox is first needed is not where its policy starts to apply.
   */
  async recordPolicy(): Promise<void> {
    await this.#onRecord?.();
  }

  /**
   * Refuses the conversation's own policy as opening its sandbox would (the conversation store kept out of its
   * reach), without opening it. A conversation checks this when it opens: its in-process tools (the file editor,
   * apply_patch) reach the workspace without any sandbox, so a store inside the workspace is refused up front.
   */
  async checkPolicy(): Promise<void> {
    await this.#guard?.(this.policy, resolve(this.workspace));
  }

  /** Throws the `SandboxUnavailableError` of the last failed open, if no open has succeeded since. */
  throwIfUnavailable(): void {
    if (this.#unavailable !== undefined) throw this.#unavailable;
  }

  #noteUnavailable(error: unknown): void {
    if (SandboxUnavailableError.isInstance(error)) this.#unavailable = error;
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
    onRecord: () => recordSandboxPolicy(record.store, record.directory, { policy, sinceEvent: record.sinceEvent() }),
    // Every sandbox of the conversation, its own and an MCP server's wider one, keeps out of its store.
    guard: (opened, workspace) =>
      assertStoreOutsideSandbox({
        policy: opened,
        workspace,
        storeRoot: record.store.describe(''),
        conversationDirectory: record.directory,
      }),
  });
}
