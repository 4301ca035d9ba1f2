import {
  type Action,
  type MessageToolCall,
  pythonJsonDumps,
  type SecurityRisk,
  safeParseKeepingPrototypeKeys,
} from '@x/events';
import { copyFields } from '../internal/copy-fields.js';
import { formatValidationError } from './internal/format-validation-error.js';
import { normalizeToolCall } from './internal/normalize-tool-call.js';
import { type Arguments, parseToolCallArguments } from './internal/parse-arguments.js';
import { pythonRepr } from './internal/python-repr.js';
import { repairArguments } from './internal/repair-arguments.js';
import { inputJsonSchemaFor, strictSchemaFor } from './internal/tool-json-schema.js';
import { toolsByName } from './internal/tools-by-name.js';
import type { Tool } from './tool.js';

export interface ParseToolCallOptions {
  /** With no security analyzer the model's `security_risk` is ignored and the risk is UNKNOWN (§9.2 step 6). */
  securityAnalyzerEnabled: boolean;
}

export interface ParsedToolCall {
  ok: true;
  tool: Tool;
  /** `{...validated arguments, kind: tool.actionKind}`: the ActionEvent's `action`. */
  action: Action;
  /** The call to record on the ActionEvent: normalized name, arguments re-serialized Python-style (meta fields kept). */
  normalizedCall: MessageToolCall;
  securityRisk: SecurityRisk;
  summary: string;
}

export interface InvalidToolCall {
  ok: false;
  /** The AgentErrorEvent's `error` (reference texts, §9.2 steps 3 and 9). */
  error: string;
  /** The AgentErrorEvent's `tool_name` (§9.3): normalized for "not found", requested (or alias target) otherwise. */
  errorToolName: string;
  /** The ActionEvent's `tool_call`: the original call, arguments replaced by a marker object when not valid JSON. */
  actionToolCall: MessageToolCall;
}

export type ToolCallParseResult = ParsedToolCall | InvalidToolCall;

const securityRisks: ReadonlySet<string> = new Set(['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH']);

/** Raised inside the pipeline for errors that take the "Error validating tool" path. */
class ValidationFailure {
  constructor(readonly message: string) {}
}

/**
 * Turns one LLM tool call into an Action (§9.2 steps 1–9), or into the error of the invalid-call path (§9.3).
 * Pure: it reads the tools' schemas and never runs anything.
 */
export function parseToolCall(
  call: MessageToolCall,
  tools: readonly Tool[],
  options: ParseToolCallOptions,
): ToolCallParseResult {
  const { byName, names } = toolsByName(tools);
  let arguments_: Arguments | undefined;
  try {
    try {
      arguments_ = parseToolCallArguments(call.arguments);
    } catch (error) {
      throw new ValidationFailure(error instanceof Error ? error.message : String(error));
    }
    const normalized = normalizeToolCall(call.name, arguments_, names);
    if (!normalized.ok) throw new ValidationFailure(normalized.message);
    const tool = byName.get(normalized.name);
    if (tool === undefined) {
      const error = `Tool '${normalized.name}' not found. Available: ${pythonRepr([...byName.keys()])}`;
      return invalid(call, error, normalized.name);
    }

    arguments_ = repairArguments(
      normalized.arguments,
      (tool.inputSchema as ReturnType<typeof inputJsonSchemaFor> | undefined) ?? inputJsonSchemaFor(tool.parameters),
    );
    // Copies and stores, not spreads followed by fields: see `copyFields` (once a step each).
    const normalizedCall = copyFields(call);
    normalizedCall.name = tool.name;
    normalizedCall.arguments = pythonJsonDumps(arguments_);
    const securityRisk = extractSecurityRisk(arguments_, tool, options);
    const summary = extractSummary(arguments_, tool);

    const parsed = safeParseKeepingPrototypeKeys(strictSchemaFor(tool.parameters), arguments_);
    if (!parsed.success) throw new ValidationFailure(formatValidationError(parsed.error, tool.actionKind));
    const data = parsed.data as Record<string, unknown>;
    const action = tool.toAction?.(data) ?? withKind(data, tool.actionKind);
    return { ok: true, tool, action, normalizedCall, securityRisk, summary };
  } catch (failure) {
    if (!(failure instanceof ValidationFailure)) throw failure;
    // A "Cannot infer 'command' for tool 'file_editor'" error is reported under the alias target's name.
    const toolName = /^Cannot infer.*?for tool '([^']+)'/s.exec(failure.message)?.[1] ?? call.name;
    const provided =
      arguments_ === undefined
        ? 'Arguments: unparseable JSON'
        : `Parameters provided: ${pythonRepr(Object.keys(arguments_))}`;
    return invalid(call, `Error validating tool '${toolName}': ${failure.message}. ${provided}`, toolName);
  }
}

function withKind(data: Record<string, unknown>, kind: string): Action {
  const action = copyFields(data);
  action.kind = kind;
  return action as Action;
}

function invalid(call: MessageToolCall, error: string, errorToolName: string): InvalidToolCall {
  let actionToolCall = call;
  try {
    JSON.parse(call.arguments);
  } catch {
    // The recorded call is replayed to the LLM provider, which rejects arguments that are not JSON.
    actionToolCall = { ...call, arguments: pythonJsonDumps({ _openhands_malformed_tool_call: true, error }) };
  }
  return { ok: false, error, errorToolName, actionToolCall };
}

/** §9.2 step 6 (mutates `arguments_`: `security_risk` is always removed). */
function extractSecurityRisk(arguments_: Arguments, tool: Tool, options: ParseToolCallOptions): SecurityRisk {
  const raw = arguments_.security_risk;
  delete arguments_.security_risk;
  if (tool.readOnly || !options.securityAnalyzerEnabled || raw === undefined) return 'UNKNOWN';
  if (typeof raw === 'string' && securityRisks.has(raw)) return raw as SecurityRisk;
  throw new ValidationFailure(`${pythonRepr(raw)} is not a valid SecurityRisk`);
}

/** §9.2 step 7 (mutates `arguments_`: `summary` is removed unless the tool declares it). */
function extractSummary(arguments_: Arguments, tool: Tool): string {
  if ('summary' in tool.parameters.shape) {
    const own = arguments_.summary;
    if (typeof own === 'string' && own.trim() !== '') return own.trim();
    return `${tool.name}: ${pythonJsonDumps(arguments_)}`;
  }
  const summary = arguments_.summary;
  delete arguments_.summary;
  if (typeof summary === 'string' && summary.trim() !== '') return summary;
  return `${tool.name}: ${pythonJsonDumps(arguments_)}`;
}
