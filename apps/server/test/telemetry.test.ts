import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type BuiltServer,
  buildServer,
  setupTelemetryFromEnv,
  traceIdOf,
  UnsupportedOtlpProtocolError,
} from '../src/index.js';
import { createRequest, finishReply, removeDir, tempDir } from './helpers.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.unstubAllEnvs();
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
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const managed = await server.built.manager.get(id);
    if (managed !== undefined && !managed.isRunning && server.llm.requests.length > 0) return id;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`conversation ${id} was still running after a minute`);
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

/** The process's OTEL_* variables, as the exporters read them (only these; the others unset). */
function otelEnvironment(variables: Record<string, string>): void {
  for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
}

type Received = { path: string; headers: IncomingHttpHeaders; body: Buffer };

async function startReceiver(): Promise<{ endpoint: string; received: Received[] }> {
  const received: Received[] = [];
  const receiver = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(parts) });
      const json = (request.headers['content-type'] ?? '').includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => receiver.close(resolve)));
  return { endpoint: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`, received };
}

describe('OTLP export from OTEL_* variables', () => {
  it('stays off without an endpoint', async () => {
    otelEnvironment({});
    const telemetry = await setupTelemetryFromEnv();
    expect(telemetry.tracesUrl).toBeUndefined();
    expect(telemetry.metricsUrl).toBeUndefined();
    otelEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_SDK_DISABLED: 'true' });
    expect(await setupTelemetryFromEnv()).toMatchObject({ tracesUrl: undefined });
  });

  it('exports the run’s spans and the GenAI metrics to an OTLP/HTTP receiver on loopback', async () => {
    const { endpoint, received } = await startReceiver();
    otelEnvironment({
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=team%20a',
      OTEL_SERVICE_NAME: 'x-under-test',
    });
    const telemetry = await setupTelemetryFromEnv();
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
        (
          JSON.parse(request.body.toString('utf8')) as {
            resourceSpans: { resource: unknown; scopeSpans: { spans: OtlpSpan[] }[] }[];
          }
        ).resourceSpans,
    );
    expect(JSON.stringify(resourceSpans[0]!.resource)).toContain('x-under-test');
    const spans = resourceSpans.flatMap((entry) => entry.scopeSpans.flatMap((scope) => scope.spans));
    const run = spans.find((span) => span.name === 'invoke_agent Agent');
    expect(run).toBeDefined();
    expect(run!.attributes).toContainEqual({ key: 'gen_ai.conversation.id', value: { stringValue: id } });
    expect(spans.map((span) => span.name)).toContain('chat gpt-test');

    const metrics = received
      .filter((request) => request.path === '/v1/metrics')
      .map((request) => request.body.toString('utf8'))
      .join('\n');
    expect(metrics).toContain('gen_ai.client.operation.duration');
    expect(metrics).toContain('gen_ai.client.token.usage');
  });

  it('honours OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf and the per-signal endpoint, read by the exporters', async () => {
    const { endpoint, received } = await startReceiver();
    otelEnvironment({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/custom/traces`,
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-signal=traces',
    });
    const telemetry = await setupTelemetryFromEnv();
    cleanups.push(() => telemetry.shutdown());
    expect(telemetry).toMatchObject({ tracesUrl: `${endpoint}/custom/traces`, metricsUrl: undefined });
    const server = await start();
    await tracedRun(server);
    await telemetry.shutdown();

    const traces = received.filter((request) => request.path === '/custom/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces[0]!.headers['content-type']).toBe('application/x-protobuf');
    expect(traces[0]!.headers['x-signal']).toBe('traces');
    // Protobuf, not JSON: the span names travel as raw strings inside the binary message.
    expect(traces[0]!.body[0]).not.toBe('{'.charCodeAt(0));
    expect(Buffer.concat(traces.map((request) => request.body)).includes('invoke_agent Agent')).toBe(true);
    expect(received.some((request) => request.path.includes('metrics'))).toBe(false);
  });

  it('refuses a protocol it cannot export with, naming the variable', async () => {
    otelEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    const error = await setupTelemetryFromEnv().catch((caught: unknown) => caught);
    expect(UnsupportedOtlpProtocolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported');
  });
});
