import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type BuiltServer, buildServer, setupTelemetryFromEnv, traceIdOf } from '../src/index.js';
import { createRequest, finishReply, removeDir, tempDir } from './helpers.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Running {
  built: BuiltServer;
  url: string;
  llm: ScriptedLLMServer;
  logs: Record<string, unknown>[];
}

async function start(): Promise<Running> {
  const dataDir = await tempDir();
  const llm = await startScriptedLLMServer([finishReply('done')]);
  const logs: Record<string, unknown>[] = [];
  const built = await buildServer(
    { port: 0, dataDir, logLevel: 'info' },
    { logStream: { write: (line) => logs.push(JSON.parse(line)) } },
  );
  const { url } = await built.listen();
  cleanups.push(
    () => removeDir(dataDir),
    () => llm.close(),
    () => built.close(),
  );
  return { built, url, llm, logs };
}

/** Creates a conversation whose first message starts a run, sending `traceparent`; waits for the run to end. */
async function tracedRun(server: Running): Promise<string> {
  const response = await fetch(`${server.url}/api/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', traceparent: TRACEPARENT },
    body: JSON.stringify(
      createRequest(server.llm, {
        initial_message: { role: 'user', content: [{ type: 'text', text: 'hello' }], run: true },
      }),
    ),
  });
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: string };
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const managed = await server.built.manager.get(id);
    if (managed !== undefined && !managed.isRunning && server.llm.requests.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return id;
}

function registerSdk(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  cleanups.push(async () => {
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });
  return exporter;
}

describe('trace context and logs', () => {
  it('runs a conversation started with a traceparent under the caller’s span', async () => {
    const exporter = registerSdk();
    const server = await start();
    const id = await tracedRun(server);

    const spans = exporter.getFinishedSpans();
    const run = spans.find((span) => span.name === 'invoke_agent Agent');
    expect(run).toBeDefined();
    expect(run!.spanContext().traceId).toBe(TRACE_ID);
    expect(run!.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(run!.attributes['gen_ai.conversation.id']).toBe(id);
    const chat = spans.find((span) => span.name === 'chat gpt-test');
    expect(chat!.parentSpanContext?.spanId).toBe(run!.spanContext().spanId);
    expect(spans.every((span) => span.spanContext().traceId === TRACE_ID)).toBe(true);
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('sk-test-secret');

    // The run's log lines carry the trace id and the conversation id.
    const started = server.logs.find((line) => line.msg === 'run started');
    expect(started).toMatchObject({ conversationId: id, traceId: TRACE_ID });
    const ended = server.logs.find((line) => line.msg === 'run ended');
    expect(ended).toMatchObject({ conversationId: id, traceId: TRACE_ID });
  });

  it('logs JSON lines with the traceparent’s trace id and the route’s conversation id, keys redacted', async () => {
    const server = await start();
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(createRequest(server.llm)),
    });
    const { id } = (await created.json()) as { id: string };
    await fetch(`${server.url}/api/conversations/${id}?session_api_key=abc123`, {
      headers: { traceparent: TRACEPARENT },
    });
    const lines = server.logs.filter((line) => (line.req as { url?: string } | undefined)?.url?.includes(id));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatchObject({ traceId: TRACE_ID, conversationId: id });
    const completed = server.logs.find((line) => line.msg === 'request completed' && line.conversationId === id);
    expect(completed).toMatchObject({ traceId: TRACE_ID });
    expect(JSON.stringify(server.logs)).not.toContain('abc123');
    expect(JSON.stringify(server.logs)).not.toContain('sk-test-secret');
  });

  it('reads only well-formed traceparent headers', () => {
    expect(traceIdOf(TRACEPARENT)).toBe(TRACE_ID);
    expect(traceIdOf(`00-${'0'.repeat(32)}-${PARENT_SPAN_ID}-01`)).toBeUndefined();
    expect(traceIdOf('garbage')).toBeUndefined();
    expect(traceIdOf(undefined)).toBeUndefined();
  });
});

describe('OTLP export from OTEL_* variables', () => {
  it('stays off without an endpoint', async () => {
    const telemetry = await setupTelemetryFromEnv({});
    expect(telemetry.tracesUrl).toBeUndefined();
    expect(telemetry.metricsUrl).toBeUndefined();
    expect(
      await setupTelemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_SDK_DISABLED: 'true' }),
    ).toMatchObject({ tracesUrl: undefined });
  });

  it('exports the run’s spans and the GenAI metrics to an OTLP/HTTP receiver on loopback', async () => {
    const received: { path: string; headers: IncomingHttpHeaders; body: unknown }[] = [];
    const receiver = createServer((request, response) => {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => {
        received.push({
          path: request.url ?? '',
          headers: request.headers,
          body: JSON.parse(Buffer.concat(parts).toString('utf8')),
        });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => receiver.close(resolve)));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

    const telemetry = await setupTelemetryFromEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=team%20a',
      OTEL_SERVICE_NAME: 'x-under-test',
    });
    cleanups.push(() => telemetry.shutdown());
    expect(telemetry.tracesUrl).toBe(`${endpoint}/v1/traces`);
    const server = await start();
    const id = await tracedRun(server);
    await telemetry.shutdown();

    const traces = received.filter((request) => request.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces[0]!.headers['x-tenant']).toBe('team a');
    expect(traces[0]!.headers['content-type']).toContain('application/json');
    type OtlpSpan = { name: string; traceId: string; attributes: { key: string; value: { stringValue?: string } }[] };
    const resourceSpans = traces.flatMap(
      (request) =>
        (request.body as { resourceSpans: { resource: unknown; scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans,
    );
    expect(JSON.stringify(resourceSpans[0]!.resource)).toContain('x-under-test');
    const spans = resourceSpans.flatMap((entry) => entry.scopeSpans.flatMap((scope) => scope.spans));
    const run = spans.find((span) => span.name === 'invoke_agent Agent');
    expect(run).toBeDefined();
    expect(run!.attributes).toContainEqual({ key: 'gen_ai.conversation.id', value: { stringValue: id } });
    expect(spans.map((span) => span.name)).toContain('chat gpt-test');

    const metrics = JSON.stringify(received.filter((request) => request.path === '/v1/metrics').map((r) => r.body));
    expect(metrics).toContain('gen_ai.client.operation.duration');
    expect(metrics).toContain('gen_ai.client.token.usage');
  });
});
