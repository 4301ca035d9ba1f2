import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SandboxAccess } from '../../sandboxing/sandbox-access.js';
import { hideCredentialValues } from '../../secrets/internal/credential-values.js';
import { hideValueEndAtStart } from '../../secrets/internal/cut-edges.js';
import { maskErrorChain } from '../../secrets/internal/mask-error.js';
import { secretPlaceholder } from '../../tools/secrets.js';
import { effectiveMcpTransport, type McpServerConfig } from '../mcp-config.js';
import { McpServerError } from '../mcp-server-error.js';
import { authHeaders } from './auth-headers.js';
import { mcpCredentials } from './mcp-credentials.js';
import { loadMcpSdk } from './mcp-sdk.js';
import { type McpSpawn, prepareMcpSpawn } from './mcp-spawn.js';
import type { McpToolDescriptor } from './mcp-tool-descriptor.js';

/** Reference defaults: 30 s to connect and list (`create_mcp_tools`), 300 s per call (`MCP_TOOL_TIMEOUT_SECONDS`). */
export const START_TIMEOUT_SECONDS = 30;
const CALL_TIMEOUT_SECONDS = 300;
const STDERR_TAIL = 2000;
/** How much of that tail an error quotes. */
const STDERR_SHOWN = 500;
/** JSON-RPC code the SDK uses for a request that timed out. */
const REQUEST_TIMEOUT_CODE = -32001;

/** What one start of the server holds: its stdio server's share of the sandbox, and its stop once begun. */
interface SessionState {
  /** Freed (once) when the session stops. */
  spawned?: McpSpawn | undefined;
  /** Set once it is being stopped: resolves when its server is gone and what it held is freed. */
  stopped?: Promise<void>;
}

/** One start of the server: its client (connected, or the start failing), and what it holds. */
interface Session extends SessionState {
  client: Promise<Client>;
}

/** A request that failed: its time limit, and how many transport errors there had been when it began. */
interface FailedRequest {
  seconds: number;
  since: number;
}

export interface McpConnectionOptions {
  name: string;
  server: McpServerConfig;
  /** Directory a stdio server starts in when its config has no `cwd`. */
  workspace?: string;
  /** Limit of starting the server and listing its tools, in seconds (default 30). */
  startTimeout?: number;
  /** The conversation's sandbox, where a stdio server runs (default: a sandbox of the default policy of its own). */
  sandbox?: SandboxAccess;
}

/**
 * One MCP server: started on first use, kept across calls, started again on the next call after it crashed,
 * timed out or was closed. Every failure is an `McpServerError` naming the server. Each start is a session of its
 * own, so a start that fails late, a crash or a timeout only ever stops (and frees) its own server, never a newer
 * one, and `close` resolves only once every server it stopped, or saw stopping, is gone.
 */
export class McpConnection {
  readonly name: string;
  readonly server: McpServerConfig;
  readonly #workspace: string | undefined;
  readonly #startTimeout: number;
  readonly #sandbox: SandboxAccess | undefined;
  #session: Session | undefined;
  /** Sessions being stopped (by close, a crash, a timeout): close waits for them all. */
  readonly #stopping = new Set<Promise<void>>();
  #stderr = '';
  /** The transport's latest error, and how many it had: a failure reports it only if it came during that request. */
  #lastTransportError: string | undefined;
  #transportErrors = 0;
  /** The config's secrets (`mcpCredentials`), hidden in every failure and reply of the server. */
  readonly #credentials: readonly string[];

  constructor(options: McpConnectionOptions) {
    this.name = options.name;
    this.server = options.server;
    this.#workspace = options.workspace;
    this.#startTimeout = options.startTimeout ?? START_TIMEOUT_SECONDS;
    this.#sandbox = options.sandbox;
    this.#credentials = mcpCredentials(options.server);
  }

  /** `text` with the config's secrets hidden: what the server says goes to the model and the event log. */
  hide(text: string): string {
    return hideCredentialValues(text, this.#credentials);
  }

  get transportName(): 'stdio' | 'http' | 'sse' {
    return effectiveMcpTransport(this.server);
  }

  async listTools(): Promise<McpToolDescriptor[]> {
    const since = this.#transportErrors;
    const session = this.#connected();
    const client = await session.client;
    const tools: McpToolDescriptor[] = [];
    let cursor: string | undefined;
    // The start limit bounds the whole list: a server whose pages never end would otherwise hold the start forever.
    const deadline = Date.now() + this.#startTimeout * 1000;
    const cursors = new Set<string>();
    try {
      do {
        const left = deadline - Date.now();
        if (left <= 0) throw this.#listTimeout();
        const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: left });
        tools.push(...page.tools);
        cursor = page.nextCursor;
        if (cursor !== undefined && cursors.has(cursor)) {
          throw new McpServerError(
            this.name,
            `MCP server '${this.name}' failed to list its tools: it gave the cursor '${cursor}' again (its pages never end)`,
          );
        }
        if (cursor !== undefined) cursors.add(cursor);
      } while (cursor !== undefined);
    } catch (error) {
      throw await this.#fail('list its tools', error, { seconds: this.#startTimeout, since, session });
    }
    return tools;
  }

  /** The server's `CallToolResult`, left `unknown` for `observationFromCallResult` to read defensively. */
  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const since = this.#transportErrors;
    const session = this.#connected();
    const client = await session.client;
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: (this.server.timeout ?? CALL_TIMEOUT_SECONDS) * 1000,
        ...(signal === undefined ? {} : { signal }),
      });
      return result;
    } catch (error) {
      throw await this.#fail(`run tool '${name}'`, error, {
        seconds: this.server.timeout ?? CALL_TIMEOUT_SECONDS,
        since,
        session,
      });
    }
  }

  /**
   * Stops the server (kills a stdio child), also one still starting, and waits for every stop under way (another
   * close, a crash, a timeout): when it resolves, no server of this connection runs. A later call starts it again.
   */
  async close(): Promise<void> {
    for (;;) {
      const session = this.#session;
      if (session !== undefined) void this.#stop(session);
      if (this.#stopping.size === 0) return;
      await Promise.all([...this.#stopping]);
    }
  }

  /** Stops one session (once): forgets it if it is the current one, closes its client, frees what it held. */
  #stop(session: Session): Promise<void> {
    if (this.#session === session) this.#session = undefined;
    if (session.stopped !== undefined) return session.stopped;
    const stopped = (async () => {
      // A start under way is waited for, then closed: a server must not come up after its close.
      await session.client.then((client) => client.close()).catch(() => undefined);
      await this.#release(session);
    })();
    session.stopped = stopped;
    this.#stopping.add(stopped);
    void stopped.finally(() => this.#stopping.delete(stopped));
    return stopped;
  }

  /** Frees what the session's stdio server held in its sandbox, once. */
  async #release(session: SessionState): Promise<void> {
    const spawned = session.spawned;
    session.spawned = undefined;
    await spawned?.release().catch(() => undefined);
  }

  #connected(): Session {
    if (this.#session !== undefined) return this.#session;
    const state: SessionState = {};
    const session: Session = Object.assign(state, {
      client: this.#connect(state).catch((error: unknown) => {
        // Only forget this session: a newer one may have started since (after a close).
        if (this.#session === session) this.#session = undefined;
        throw error;
      }),
    });
    this.#session = session;
    return session;
  }

  async #connect(session: SessionState): Promise<Client> {
    const sdk = await loadMcpSdk();
    this.#stderr = '';
    const since = this.#transportErrors;
    let transport: Transport;
    try {
      transport = await this.#transport(sdk, session);
    } catch (error) {
      await this.#release(session);
      throw this.#error('start', error, { seconds: this.#startTimeout, since });
    }
    const client = new sdk.Client({ name: 'x-agent', version: '0.0.0' });
    client.onerror = (error) => {
      this.#lastTransportError = error.message;
      this.#transportErrors += 1;
    };
    client.onclose = () => {
      // The server went (a crash, or a close): what it held is freed at once, not left to the next start or close.
      if (this.#session === session) this.#session = undefined;
      const released = this.#release(session);
      this.#stopping.add(released);
      void released.finally(() => this.#stopping.delete(released));
    };
    try {
      await client.connect(transport, { timeout: this.#startTimeout * 1000 });
    } catch (error) {
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      await this.#release(session);
      throw this.#error('start', error, { seconds: this.#startTimeout, since });
    }
    return client;
  }

  async #transport(sdk: Awaited<ReturnType<typeof loadMcpSdk>>, session: SessionState): Promise<Transport> {
    const server = this.server;
    if (this.transportName === 'stdio') {
      // The SDK spawns the process itself: it gets the command rewritten to start inside the sandbox.
      session.spawned = await prepareMcpSpawn({
        server,
        sandbox: this.#sandbox,
        workspace: this.#workspace ?? process.cwd(),
        // Only PATH/HOME-like basics and what the config gives: the host's secrets never reach the server.
        env: { ...sdk.getDefaultEnvironment(), ...(server.env ?? {}) },
      });
      const { command, args, env, cwd } = session.spawned.prepared;
      const transport = new sdk.StdioClientTransport({ command, args, env, cwd, stderr: 'pipe' });
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      return transport;
    }
    const headers = authHeaders(server);
    if (this.transportName === 'sse') {
      // The stream is opened by a GET, messages go by POST: both carry the configured headers.
      return new sdk.SSEClientTransport(new URL(server.url as string), {
        requestInit: { headers },
      }) as Transport;
    }
    return new sdk.StreamableHTTPClientTransport(new URL(server.url as string), {
      requestInit: { headers },
    }) as Transport;
  }

  #listTimeout(): McpServerError {
    return new McpServerError(
      this.name,
      `MCP server '${this.name}' failed to list its tools: no reply within ${this.#startTimeout} seconds (its tool list did not end)`,
      { timeout: true, during: 'start' },
    );
  }

  /** Turns a failed request into an McpServerError; a timed-out server is stopped so the next call restarts it. */
  async #fail(what: string, error: unknown, request: FailedRequest & { session: Session }): Promise<McpServerError> {
    const failure = this.#error(what, error, request);
    // The session the request went to, not whichever is current by now (it may be a newer, healthy one).
    if (failure.code === 'mcp_timeout') await this.#stop(request.session);
    return failure;
  }

  /**
   * The McpServerError of a failed request. The transport's error is named only when one came while the request was
   * under way: one the connection lived through before says nothing about this failure.
   */
  #error(what: string, error: unknown, request: FailedRequest): McpServerError {
    const failure = this.#describe(what, error, request);
    // Its message quotes the server's stderr and the transport's errors, its cause the client's: all of it is told.
    maskErrorChain(failure, (text) => this.hide(text));
    return failure;
  }

  /** The end of what the server wrote to stderr; a credential cut in two by its start is hidden too. */
  #stderrTail(): string {
    const stderr = this.#stderr.trim();
    if (stderr.length <= STDERR_SHOWN) return stderr;
    return hideValueEndAtStart(stderr.slice(-STDERR_SHOWN), this.#credentials, secretPlaceholder);
  }

  #describe(what: string, error: unknown, request: FailedRequest): McpServerError {
    if (error instanceof McpServerError) return error;
    const timedOut = (error as { code?: unknown } | undefined)?.code === REQUEST_TIMEOUT_CODE;
    const reason = timedOut
      ? `no reply within ${request.seconds} seconds`
      : error instanceof Error
        ? error.message
        : String(error);
    const details = [
      this.#transportErrors === request.since ? '' : ` (transport error: ${this.#lastTransportError})`,
      this.#stderr.trim() === '' ? '' : `; server stderr: ${this.#stderrTail()}`,
    ].join('');
    return new McpServerError(this.name, `MCP server '${this.name}' failed to ${what}: ${reason}${details}`, {
      cause: error,
      timeout: timedOut,
      during: what.startsWith('run tool') ? 'call' : 'start',
    });
  }
}
