import type { Action, AnyEvent, ImageContent, Observation, TextContent } from '@x/events';
import type { FileStore } from '@x/store';
import type { z } from 'zod';
import type { LLM } from '../llm/llm.js';
import type { MetricsSnapshot } from '../llm/metrics.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { SandboxPolicy } from '../sandbox/sandbox-policy.js';
import type { ConversationSession } from '../session/conversation-session.js';
import { strictSchemaFor } from './internal/tool-json-schema.js';
import { InvalidToolError } from './invalid-tool-error.js';
import { ToolExecutionError } from './tool-execution-error.js';

/** MCP-style hints about a tool's behaviour (§4.3). Missing hints take the reference defaults. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Files stored in the conversation's own directory (on disk, in S3, in memory: wherever its events are). */
export interface ConversationFiles {
  /** The file's text, or undefined when it does not exist. */
  read(name: string): Promise<string | undefined>;
  write(name: string, text: string): Promise<void>;
}

/** What a tool run can see of its surroundings. */
export interface ToolContext {
  /** Absolute directory the tool works in (terminal cwd, file editor root). */
  workspace: string;
  /** Aborts a running tool (the terminal kills its process group). */
  signal?: AbortSignal;
  /** Extra environment for processes the tool starts, e.g. secrets picked by `secretEnvFor`. */
  env?: Record<string, string>;
  /** Values that must never appear in tool output; the terminal replaces them with `<secret-hidden>`. */
  secretValues?: readonly string[];
  /** Keys the terminal's session and the editor's undo history (one per conversation). */
  conversationId?: string;
  /** The conversation the tool runs in, for tools that start sub-conversations beside it (delegation). */
  conversation?: ToolConversation;
  /** Files kept with the conversation (next to its events), e.g. the task tracker's TASKS.json. */
  conversationFiles?: ConversationFiles;
  /**
   * The conversation's sandbox, opened on the first call: every process a tool starts runs in it. Without one
   * (a tool run on its own), process tools open a sandbox of the default policy themselves.
   */
  sandbox?: () => Promise<Sandbox>;
  /**
   * The id of the LLM response whose tool call this run answers (the ActionEvent's `llm_response_id`): the calls of
   * one response share it. A tool passing control gives it to `transferControl`, so only one handoff per response
   * takes effect.
   */
  llmResponseId?: string;
}

/** What a tool may know of its conversation: where it is stored and what it runs with. */
export interface ToolConversation {
  readonly id: string;
  readonly store: FileStore;
  /** The conversation's directory inside `store` (`<id as 32 hex>`). */
  readonly directory: string;
  /** The persistence directory recorded in base_state.json. */
  readonly persistenceDir: string;
  readonly workspace: string;
  /** The model of the conversation's agent. */
  readonly llm: LLM;
  /** The conversation's current confirmation policy. */
  readonly confirmationPolicy: Readonly<{ kind: string } & Record<string, unknown>>;
  /**
   * Sets the metrics of one usage id in the conversation's stats (a sub-agent's spending, `delegate:<id>`). Refuses
   * (`InvalidUsageIdError`) an id no usage id may be, `default`, and the id of any of the conversation's own models
   * (each agent's LLM and condenser, a switched model), whose entry it would replace.
   */
  recordUsage?(usageId: string, metrics: MetricsSnapshot): Promise<void>;
  /** What the conversation's money budgets have left (a sub-agent's budget); undefined without one. */
  budgetRemaining?(): Promise<{ remainingUsd: number; allowUnknownCost: boolean } | undefined>;
  /** The events of the active branch, root first, forgotten ones included (what `recall` searches). */
  activeBranch?(): Promise<readonly AnyEvent[]>;
  /** The conversation's sandbox policy (sub-agents inherit it). */
  readonly sandboxPolicy?: SandboxPolicy;
  /** The conversation's sandbox, opened on the first call (sub-agents run in it). */
  sandbox?(): Promise<Sandbox>;
  /** The session state and artifacts: a tool reads and sets state (`update`) and saves artifact versions. */
  readonly session?: ConversationSession;
  /**
   * Passes control to another of the conversation's agents (`transfer_to_agent`); `UnknownAgentError` for a name
   * it was not given, `ToolExecutionError` for the agent already in control (under any of its names), and for a
   * second handoff of the response `llmResponseId` (the tool's `ToolContext.llmResponseId`): one handoff per
   * response.
   */
  transferControl?(agentName: string, reason: string, options?: { llmResponseId?: string | undefined }): Promise<void>;
  /** Stops the conversation's run for a human with `reason` (`escalate`; `agent`: the sub-agent that escalated). */
  escalate?(reason: string, agent?: string): Promise<void>;
}

export type ToolContent = TextContent | ImageContent;

/** What `execute` returns: the framework turns it into the Observation `{content, is_error, ...extra, kind}`. */
export interface ToolResult {
  /** A string becomes a single TextContent. */
  content: ToolContent[] | string;
  is_error?: boolean;
  [field: string]: unknown;
}

export interface ToolSpec<Schema extends z.ZodObject> {
  /** Name the LLM calls the tool by: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  description: string;
  /** Arguments of the action; becomes the tool's JSON Schema. */
  parameters: Schema;
  annotations?: ToolAnnotations;
  /** Defaults to PascalCase(name) + 'Action'. */
  actionKind?: string;
  /** Defaults to PascalCase(name) + 'Observation'. */
  observationKind?: string;
  /** Defaults to PascalCase(name) + 'Tool'. */
  toolKind?: string;
  execute(args: z.output<Schema>, context: ToolContext): Promise<ToolResult> | ToolResult;
  /** Releases what the tool holds for a conversation (the terminal's shell); called when it closes. */
  closeConversation?(conversationId: string): Promise<void> | void;
}

export interface Tool<Args extends Record<string, unknown> = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly parameters: z.ZodObject;
  readonly annotations: Readonly<ToolAnnotations> | undefined;
  readonly actionKind: string;
  readonly observationKind: string;
  readonly toolKind: string;
  /** `annotations.readOnlyHint`: read-only tools get no `security_risk` and always UNKNOWN risk. */
  readonly readOnly: boolean;
  /**
   * A tool the client runs (an AG-UI frontend tool, the reference's `ClientTool`): a call to it is never executed
   * here. The action stays pending and the run stops waiting (`waiting_for_confirmation`) until its result is
   * given as a `substitute` decision (`Conversation.decide`), or it is denied.
   */
  readonly executedByClient?: boolean;
  /**
   * Runs the tool on an Action value (from `parseToolCall`, or read back from an event log): `kind` is ignored and
   * the other fields are validated against `parameters`; invalid fields throw `ToolExecutionError`.
   */
  execute(action: Readonly<Record<string, unknown>>, context: ToolContext): Promise<Observation>;
  /** Runs the tool on arguments that are already typed and validated. */
  run(args: Args, context: ToolContext): Promise<Observation>;
  /** The JSON Schema the model sees when it is not derived from `parameters` (MCP tools bring their own). */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** Builds the Action from validated arguments; default `{...arguments, kind: actionKind}` (MCP: `{data, kind}`). */
  toAction?(args: Record<string, unknown>): Action;
  /** Extra keys of the tool's ToolDefinition JSON in the SystemPromptEvent (MCP: `mcp_tool`). */
  readonly definitionFields?: Readonly<Record<string, unknown>>;
  /** Releases what the tool holds for a conversation (the terminal kills its shell). Safe to call twice. */
  closeConversation?(conversationId: string): Promise<void>;
}

/** Names every provider accepts for a function (OpenAI's rule, the strictest). */
export const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** `file_editor` → `FileEditor`. */
export function pascalCase(name: string): string {
  return name
    .split(/[^a-zA-Z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** A TextContent part with the defaults of the wire format. */
export function textContent(text: string): TextContent {
  return { cache_prompt: false, type: 'text', text };
}

/** Defines a tool: its LLM-facing schema comes from `parameters`, its Observation from what `execute` returns. */
export function defineTool<Schema extends z.ZodObject>(spec: ToolSpec<Schema>): Tool<z.output<Schema>> {
  if (!toolNamePattern.test(spec.name)) {
    throw new InvalidToolError(
      spec.name,
      `Tool name '${spec.name}' is invalid: use 1-64 letters, digits, '_' or '-' (OpenAI function-name rule).`,
    );
  }
  const base = pascalCase(spec.name);
  const observationKind = spec.observationKind ?? `${base}Observation`;
  const validator = strictSchemaFor(spec.parameters);

  const run = async (args: z.output<Schema>, context: ToolContext): Promise<Observation> => {
    const result = await spec.execute(args, context);
    const { content, is_error } = result;
    const parts = typeof content === 'string' ? [textContent(content)] : content;
    // `{ content, is_error, ...extra, kind }` written out: object rest is a slow runtime copy, run at every call.
    const observation: Record<string, unknown> = { content: parts, is_error: is_error ?? false };
    for (const key of Object.keys(result)) {
      if (key === 'content' || key === 'is_error' || key === 'kind') continue;
      const value = (result as Record<string, unknown>)[key];
      if (key === '__proto__') {
        Object.defineProperty(observation, key, { value, enumerable: true, writable: true, configurable: true });
      } else observation[key] = value;
    }
    observation.kind = observationKind;
    return observation as Observation;
  };

  return Object.freeze({
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    annotations: spec.annotations === undefined ? undefined : Object.freeze({ ...spec.annotations }),
    actionKind: spec.actionKind ?? `${base}Action`,
    observationKind,
    toolKind: spec.toolKind ?? `${base}Tool`,
    readOnly: spec.annotations?.readOnlyHint ?? false,
    run,
    async closeConversation(conversationId: string): Promise<void> {
      await spec.closeConversation?.(conversationId);
    },
    async execute(action: Readonly<Record<string, unknown>>, context: ToolContext): Promise<Observation> {
      const { kind: _kind, ...fields } = action;
      const parsed = validator.safeParse(fields);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
        throw new ToolExecutionError(spec.name, `Invalid arguments for tool '${spec.name}': ${problems.join('; ')}`, {
          cause: parsed.error,
        });
      }
      return run(parsed.data as z.output<Schema>, context);
    },
  });
}
