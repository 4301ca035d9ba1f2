import type { Attributes } from '@opentelemetry/api';
import type { ActionEvent, Observation } from '@x/events';
import type { LLM, LLMRequest, LLMResponse } from '../llm/llm.js';
import { ATTR, OPERATION, providerName } from './attributes.js';
import { genAIMessages } from './genai-messages.js';
import { metricsOff, recordChatMetrics } from './genai-metrics.js';
import { llmSettings } from './llm-settings.js';
import { otel, otelRegistered } from './otel.js';
import { captureMessageContent } from './telemetry-options.js';
import { errorTypeOf, recordError, tracingOff, withSpan, xTracer } from './tracer.js';

/** The context key of the agent's name (`createContextKey` returns a `Symbol.for`, so one key per process). */
const AGENT_NAME = Symbol.for('x.agent.name');

/**
 * The `gen_ai.agent.name` of runs started inside `fn` (sub-agents are named after their id and type). Without
 * a context manager registered, the API's context is always the root one and drops values: nothing to carry.
 */
export function withAgentName<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!otelRegistered('context')) return fn();
  const { context } = otel();
  return context.with(context.active().setValue(AGENT_NAME, name), fn);
}

function agentName(): string {
  if (!otelRegistered('context')) return 'Agent';
  return (otel().context.active().getValue(AGENT_NAME) as string | undefined) ?? 'Agent';
}

/** The `invoke_agent {agent}` span around one run of a conversation. */
export function traceAgentRun<T>(run: { conversationId: string; llm: LLM }, fn: () => Promise<T>): Promise<T> {
  const name = agentName();
  return withSpan(
    `${OPERATION.invokeAgent} ${name}`,
    {
      attributes: {
        [ATTR.operationName]: OPERATION.invokeAgent,
        [ATTR.providerName]: providerName(run.llm),
        [ATTR.agentName]: name,
        [ATTR.conversationId]: run.conversationId,
        [ATTR.requestModel]: run.llm.model,
      },
    },
    fn,
  );
}

/** The `chat {model}` client span of one model call, with the duration and token-usage metrics. */
export async function traceChat(
  llm: LLM,
  request: LLMRequest,
  complete: (request: LLMRequest) => Promise<LLMResponse>,
): Promise<LLMResponse> {
  if (tracingOff() && metricsOff()) return complete(request);
  const settings = llmSettings(llm);
  const attributes: Attributes = {
    [ATTR.operationName]: OPERATION.chat,
    [ATTR.providerName]: providerName(llm),
    [ATTR.requestModel]: llm.model,
    ...serverAttributes(settings.baseURL),
  };
  const started = performance.now();
  return withSpan(
    `${OPERATION.chat} ${llm.model}`,
    {
      kind: otel().SpanKind.CLIENT,
      attributes: {
        ...attributes,
        ...(settings.temperature !== undefined && { [ATTR.requestTemperature]: settings.temperature }),
        ...(settings.maxOutputTokens !== undefined && { [ATTR.requestMaxTokens]: settings.maxOutputTokens }),
      },
    },
    async (span) => {
      const capture = span.isRecording() && captureMessageContent();
      if (capture) span.setAttribute(ATTR.inputMessages, genAIMessages(request.messages));
      let response: LLMResponse;
      try {
        response = await complete(request);
      } catch (error) {
        recordChatMetrics({ ...attributes, [ATTR.errorType]: errorTypeOf(error) }, seconds(started), undefined);
        throw error;
      }
      const responseModel = response.usage?.model || llm.model;
      const usage = response.usage;
      recordChatMetrics(
        { ...attributes, [ATTR.responseModel]: responseModel },
        seconds(started),
        usage === null ? undefined : { input: usage.prompt_tokens, output: usage.completion_tokens },
      );
      if (!span.isRecording()) return response;
      span.setAttributes({
        [ATTR.responseId]: response.id,
        [ATTR.responseModel]: responseModel,
        ...(response.finishReason != null && { [ATTR.responseFinishReasons]: [response.finishReason] }),
        ...(usage !== null && {
          [ATTR.usageInputTokens]: usage.prompt_tokens,
          [ATTR.usageOutputTokens]: usage.completion_tokens,
          [ATTR.usageCacheReadInputTokens]: usage.cache_read_tokens,
          [ATTR.usageCacheCreationInputTokens]: usage.cache_write_tokens,
        }),
      });
      if (capture) span.setAttribute(ATTR.outputMessages, genAIMessages([response.message], response.finishReason));
      return response;
    },
  );
}

/** What a tool span learns from its call site once the tool has run. */
export interface ToolSpan {
  /** The tool returned: its (masked) observation and the id of the ObservationEvent recorded for it. */
  succeeded(observation: Observation, eventId: string): void;
  /** The tool failed: recorded on the span with its secret-masked message; `eventId` is the AgentErrorEvent. */
  failed(error: unknown, eventId: string, maskedMessage: string): void;
}

const NOOP_TOOL_SPAN: ToolSpan = { succeeded: () => undefined, failed: () => undefined };

/** The `execute_tool {tool}` span of one action; arguments and results only with content capture. */
export function traceTool<T>(
  action: ActionEvent,
  description: string | undefined,
  fn: (span: ToolSpan) => Promise<T>,
): Promise<T> {
  if (tracingOff()) return fn(NOOP_TOOL_SPAN);
  return withSpan(
    `${OPERATION.executeTool} ${action.tool_name}`,
    {
      attributes: {
        [ATTR.operationName]: OPERATION.executeTool,
        [ATTR.toolName]: action.tool_name,
        [ATTR.toolCallId]: action.tool_call_id,
        [ATTR.toolType]: 'function',
        [ATTR.actionIds]: [action.id],
        ...(description !== undefined && { [ATTR.toolDescription]: description }),
      },
    },
    (span) => {
      const capture = span.isRecording() && captureMessageContent();
      if (capture && action.action !== undefined) {
        span.setAttribute(ATTR.toolCallArguments, JSON.stringify(action.action));
      }
      return fn({
        succeeded(observation, eventId) {
          span.setAttribute(ATTR.eventId, eventId);
          if (capture) span.setAttribute(ATTR.toolCallResult, observationText(observation));
        },
        failed(error, eventId, maskedMessage) {
          span.setAttribute(ATTR.eventId, eventId);
          recordError(span, error, undefined, maskedMessage);
        },
      });
    },
  );
}

/**
 * The `condense` span around one condenser pass (its summarizing `chat` span nests inside);
 * `x.condensation.produced` tells whether the pass returned a Condensation (then `x.event.id` is its id).
 */
export function traceCondense<T extends object>(condenser: string, fn: () => Promise<T>): Promise<T> {
  return withSpan(
    OPERATION.condense,
    { attributes: { [ATTR.operationName]: OPERATION.condense, 'x.condenser.kind': condenser } },
    async (span) => {
      const result = await fn();
      const condensation = (result as { kind?: unknown }).kind === 'Condensation';
      span.setAttribute('x.condensation.produced', condensation);
      if (condensation) span.setAttribute(ATTR.eventId, (result as { id: string }).id);
      return result;
    },
  );
}

/**
 * Marks the start of a wait for the user's confirmation: an `await_confirmation` span that ends at
 * once, so no span stays open while a human decides.
 */
export function markConfirmationWait(actions: readonly ActionEvent[]): void {
  if (tracingOff()) return;
  const span = xTracer().startSpan(OPERATION.awaitConfirmation, {
    attributes: {
      [ATTR.operationName]: OPERATION.awaitConfirmation,
      [ATTR.actionIds]: actions.map((action) => action.id),
      'x.tool.names': actions.map((action) => action.tool_name),
    },
  });
  span.end();
}

/** The `run_hook {type}` span of one hook command; `x.event.id` is the HookExecutionEvent made of its result. */
export function traceHook<T extends { result: { success: boolean; blocked: boolean }; event: { id: string } }>(
  eventType: string,
  fn: () => Promise<T>,
): Promise<T> {
  return withSpan(
    `${OPERATION.runHook} ${eventType}`,
    { attributes: { [ATTR.operationName]: OPERATION.runHook, [ATTR.hookEventType]: eventType } },
    async (span) => {
      const outcome = await fn();
      span.setAttributes({ 'x.hook.blocked': outcome.result.blocked, [ATTR.eventId]: outcome.event.id });
      if (!outcome.result.success) recordError(span, new Error(`${eventType} hook failed`), 'HookFailed');
      return outcome;
    },
  );
}

function observationText(observation: Observation): string {
  return observation.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function seconds(started: number): number {
  return (performance.now() - started) / 1000;
}

/**
 * `server.address` and `server.port` of a model's base URL. The address is the host as semantic conventions
 * spell it: an IPv6 literal without the brackets a URL needs around it (`::1`, not `[::1]`).
 */
export function serverAttributes(baseURL: string | undefined): Attributes {
  if (baseURL === undefined) return {};
  try {
    const url = new URL(baseURL);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    const address = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    return { [ATTR.serverAddress]: address, [ATTR.serverPort]: port };
  } catch {
    return {};
  }
}
