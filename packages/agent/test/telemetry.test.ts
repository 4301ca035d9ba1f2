import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ActionEvent, AnyEvent, ObservationEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureTelemetry, createLLM, LLMSummarizingCondenser } from '../src/index.js';
import type { ScriptedReply, ScriptedRequestBody } from '../src/testing/index.js';
import { type Harness, startHarness } from './support/harness.js';
import { parentOf, registerTestSdk, type TestSdk } from './support/otel-sdk.js';

let harness: Harness;
let sdk: TestSdk;
beforeEach(() => {
  sdk = registerTestSdk();
});
afterEach(async () => {
  configureTelemetry({});
  await sdk.shutdown();
  await harness?.close();
});

const isSummaryRequest = (body: ScriptedRequestBody) => JSON.stringify(body.messages).includes('<EVENT>');

/** A terminal call, three thoughts (enough to make a 6-event view condense) and a finish. */
function script(command: string): (body: ScriptedRequestBody) => ScriptedReply {
  let step = 0;
  return (body) => {
    if (isSummaryRequest(body)) return { content: 'SUMMARY: the user asked for a command.' };
    step += 1;
    if (step === 1) return { toolCalls: [{ name: 'terminal', arguments: { command } }] };
    if (step <= 4) return { toolCalls: [{ name: 'think', arguments: { thought: `thought-${step}` } }] };
    return {
      toolCalls: [{ name: 'finish', arguments: { message: 'done' } }],
      usage: { prompt_tokens: 40, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 30 } },
    };
  };
}

async function tracedRun(command: string, secrets: Record<string, string> = {}) {
  harness = await startHarness();
  const { startScriptedLLMServer } = await import('../src/testing/index.js');
  const server = await startScriptedLLMServer(script(command));
  const llm = createLLM({
    provider: 'openai',
    model: 'scripted',
    baseURL: server.baseURL,
    apiKey: 'sk-test',
    maxRetries: 0,
    temperature: 0.25,
    maxOutputTokens: 512,
  });
  const condenser = new LLMSummarizingCondenser({ llm, maxSize: 6, keepFirst: 1 });
  const { conversation, events } = await harness.conversation({
    agent: harness.agent({ llm, condenser }),
    confirmationPolicy: { kind: 'AlwaysConfirm' },
    secrets,
  });
  await conversation.sendMessage('Run the command');
  const first = await conversation.run();
  await conversation.setConfirmationPolicy({ kind: 'NeverConfirm' });
  const second = await conversation.run();
  await server.close();
  return { conversation, events, first, second, server };
}

const named = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const one = (spans: ReadableSpan[], name: string) => {
  const found = named(spans, name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};
const ofKind = <K extends AnyEvent['kind']>(events: AnyEvent[], kind: K) =>
  events.filter((event): event is Extract<AnyEvent, { kind: K }> => event.kind === kind);

describe('OpenTelemetry GenAI spans of a tool-using, condensing, confirming run', () => {
  it('nests invoke_agent > chat / await_confirmation / execute_tool / condense > chat, with the conventions’ attributes', async () => {
    const { conversation, events, first, second } = await tracedRun('echo traced');
    expect(first.status).toBe('waiting_for_confirmation');
    expect(second.status).toBe('finished');
    const spans = sdk.spans();

    const runs = named(spans, 'invoke_agent Agent');
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.kind).toBe(SpanKind.INTERNAL);
      expect(parentOf(run)).toBeUndefined();
      expect(run.attributes).toMatchObject({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.provider.name': 'openai',
        'gen_ai.agent.name': 'Agent',
        'gen_ai.conversation.id': conversation.id,
        'gen_ai.request.model': 'scripted',
      });
    }
    const [run1, run2] = runs.sort((a, b) => (a.startTime[0] - b.startTime[0]) * 1e9 + a.startTime[1] - b.startTime[1]);
    const childrenOf = (parent: ReadableSpan) => spans.filter((span) => parentOf(span) === parent.spanContext().spanId);

    // Run 1: a condenser pass with nothing to do, one model call, then the wait for confirmation (already
    // ended when the run returned).
    expect(childrenOf(run1!).map((span) => span.name)).toEqual(['condense', 'chat scripted', 'await_confirmation']);
    expect(childrenOf(run1!)[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'condense',
      'x.condenser.kind': 'LLMSummarizingCondenser',
      'x.condensation.produced': false,
    });
    const chat = childrenOf(run1!)[1]!;
    expect(chat.kind).toBe(SpanKind.CLIENT);
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'scripted',
      'gen_ai.request.temperature': 0.25,
      'gen_ai.request.max_tokens': 512,
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.model': 'scripted',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
      'server.address': '127.0.0.1',
    });
    expect(chat.attributes).not.toHaveProperty('gen_ai.input.messages');
    expect(chat.attributes).not.toHaveProperty('gen_ai.output.messages');
    const action = ofKind(events, 'ActionEvent')[0] as ActionEvent;
    const wait = childrenOf(run1!)[2]!;
    expect(wait.attributes).toMatchObject({
      'gen_ai.operation.name': 'await_confirmation',
      'x.action.ids': [action.id],
    });
    expect(wait.duration[0] * 1e9 + wait.duration[1]).toBeLessThan(run1!.duration[0] * 1e9 + run1!.duration[1]);
    // The events the run produced are linked to the span that was active (the action to the run).
    expect(run1!.events.map((event) => event.attributes?.['x.event.id'])).toContain(action.id);

    // Run 2: the confirmed action executes, the thoughts, a condensation with its own model call, the finish.
    const tool = one(spans, 'execute_tool terminal');
    expect(parentOf(tool)).toBe(run2!.spanContext().spanId);
    const observation = ofKind(events, 'ObservationEvent')[0] as ObservationEvent;
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'terminal',
      'gen_ai.tool.call.id': action.tool_call_id,
      'gen_ai.tool.type': 'function',
      'x.event.id': observation.id,
      'x.action.ids': [action.id],
    });
    expect(tool.attributes).not.toHaveProperty('gen_ai.tool.call.arguments');
    expect(tool.attributes).not.toHaveProperty('gen_ai.tool.call.result');
    expect(tool.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(tool.events.map((event) => event.attributes?.['x.event.id'])).toContain(observation.id);

    const condensations = named(spans, 'condense').filter((span) => span.attributes['x.condensation.produced']);
    expect(condensations.length).toBeGreaterThanOrEqual(1);
    const condense = condensations[0]!;
    expect(parentOf(condense)).toBe(run2!.spanContext().spanId);
    const condensation = ofKind(events, 'Condensation')[0]!;
    expect(condense.attributes['x.event.id']).toBe(condensation.id);
    const summary = childrenOf(condense);
    expect(summary.map((span) => span.name)).toEqual(['chat scripted']);
    expect(summary[0]!.attributes['gen_ai.response.id']).toBe(condensation.llm_response_id);

    expect(named(spans, 'execute_tool think').every((span) => parentOf(span) === run2!.spanContext().spanId)).toBe(
      true,
    );
    const last = spans.filter((span) => span.name === 'chat scripted').at(-1)!;
    expect(last.attributes).toMatchObject({
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.usage.cache_read.input_tokens': 30,
    });

    // Metrics: one duration per model call, input and output token counts per call.
    const chats = named(spans, 'chat scripted').length;
    const histograms = await sdk.histograms();
    const duration = histograms.get('gen_ai.client.operation.duration')!;
    expect(duration.descriptor.unit).toBe('s');
    expect(duration.dataPoints.reduce((sum, point) => sum + point.value.count, 0)).toBe(chats);
    expect(duration.dataPoints[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'scripted',
      'gen_ai.response.model': 'scripted',
    });
    const tokens = histograms.get('gen_ai.client.token.usage')!;
    expect(tokens.descriptor.unit).toBe('{token}');
    const byType = (type: string) =>
      tokens.dataPoints.find((point) => point.attributes['gen_ai.token.type'] === type)!.value;
    expect(byType('input').count).toBe(chats);
    expect(byType('output').count).toBe(chats);
    expect(byType('output').sum).toBe(5 * (chats - 1) + 7);
  });

  it('captures messages, tool arguments and results only when asked, with secrets masked', async () => {
    configureTelemetry({ captureMessageContent: true });
    const { events } = await tracedRun('echo "$API_TOKEN"', { API_TOKEN: 'tok-s3cr3t-value' });
    const spans = sdk.spans();
    const everything = JSON.stringify(spans.map((span) => [span.attributes, span.events]));
    expect(everything).not.toContain('tok-s3cr3t-value');

    const chat = named(spans, 'chat scripted')[0]!;
    const input = JSON.parse(String(chat.attributes['gen_ai.input.messages']));
    expect(input.at(-1)).toEqual({ role: 'user', parts: [{ type: 'text', content: 'Run the command' }] });
    const output = JSON.parse(String(chat.attributes['gen_ai.output.messages']));
    expect(output[0]).toMatchObject({
      role: 'assistant',
      finish_reason: 'tool_calls',
      parts: [{ type: 'tool_call', name: 'terminal', arguments: { command: 'echo "$API_TOKEN"' } }],
    });
    const tool = one(spans, 'execute_tool terminal');
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.arguments']))).toMatchObject({
      command: 'echo "$API_TOKEN"',
    });
    expect(String(tool.attributes['gen_ai.tool.call.result'])).toContain('<secret-hidden>');
    expect(ofKind(events, 'ObservationEvent')[0]!.observation.content).toBeDefined();
  });
});
