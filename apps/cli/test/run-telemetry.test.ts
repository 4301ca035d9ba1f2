// `x run` exports its spans and metrics over OTLP/HTTP from the same OTEL_* variables as `x serve`, to a local
// receiver on 127.0.0.1, and flushes them before it exits.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBackground } from './helpers/background.js';
import { type OtlpReceiver, type ReceivedExport, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
let receiver: OtlpReceiver;
let received: ReceivedExport[];
let endpoint = '';

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  endpoint = receiver.endpoint;
  received = receiver.received;
});
beforeEach(() => {
  received.length = 0;
});
afterAll(async () => {
  await receiver.close();
  home.remove();
});

const idOf = (text: string): string => /^Conversation ([0-9a-f-]{36})$/m.exec(text)?.[1] ?? '';

describe('x run with OTEL_* variables', () => {
  it('exports the run’s spans and metrics before it exits, under the service name x-cli', async () => {
    const result = await runCli(['run', '--demo', '--verbose'], {
      env: { X_HOME: home.path, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'x-team=agents' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`telemetry OTLP ${endpoint}/v1/traces`);
    expect(result.stderr).toContain(`x: exporting spans to ${endpoint}/v1/traces`);
    const traces = received.filter((request) => request.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    const all = traces.map((request) => request.body).join('\n');
    expect(all).toContain('"invoke_agent Agent"');
    expect(all).toContain('"execute_tool finish"');
    expect(all).toContain('"x-cli"');
    expect(all).toContain(idOf(result.stdout));
    expect(traces[0]?.headers['x-team']).toBe('agents');
    expect(received.some((request) => request.path === '/v1/metrics')).toBe(true);
  });

  it('honours OTEL_SERVICE_NAME and OTEL_METRICS_EXPORTER=none, and --json keeps stdout to events', async () => {
    const result = await runCli(['run', '--demo', '--json'], {
      env: {
        X_HOME: home.path,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/custom/traces`,
        OTEL_SERVICE_NAME: 'my-agents',
        OTEL_METRICS_EXPORTER: 'none',
      },
    });
    expect(result.code, result.stderr).toBe(0);
    for (const line of result.stdout.split('\n').filter((text) => text !== ''))
      expect(() => JSON.parse(line)).not.toThrow();
    expect(result.stderr).toContain(`telemetry OTLP ${endpoint}/custom/traces`);
    const all = received.filter((request) => request.path === '/custom/traces').map((request) => request.body);
    expect(all.join('\n')).toContain('"my-agents"');
    expect(received.map((request) => request.path)).not.toContain('/v1/metrics');
  });

  it('loads no exporter and sends nothing without an endpoint', async () => {
    const result = await runCli(['run', '--demo', '--verbose'], { env: { X_HOME: home.path, OTEL_SERVICE_NAME: 'x' } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('telemetry');
    expect(result.stderr).not.toContain('exporting spans');
    expect(received).toEqual([]);
  });
});

describe('x run ended by a signal', () => {
  it('still exports the spans finished before SIGTERM', async () => {
    const llm = await startScriptedLLMServer();
    const workspace = tempDir();
    try {
      const marker = join(workspace.path, 'started');
      llm.push({
        toolCalls: [{ name: 'terminal', arguments: { command: 'touch started; sleep 1000', timeout: 3000 } }],
      });
      const run = startBackground(['run', 'Wait', '--model', 'my-local-model', '--workspace', workspace.path], {
        X_HOME: home.path,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: llm.baseURL,
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_METRICS_EXPORTER: 'none',
      });
      while (!existsSync(marker)) {
        if (run.child.exitCode !== null) throw new Error(`x run exited early:\n${run.stdout}\n${run.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const closed = new Promise<NodeJS.Signals | null>((resolve) => run.child.once('close', (_, by) => resolve(by)));
      run.child.kill('SIGTERM');
      expect(await closed).toBe('SIGTERM');
      const all = received
        .filter((request) => request.path === '/v1/traces')
        .map((request) => request.body)
        .join('\n');
      // The model call ended before the signal; the tool call it started was still running.
      expect(all).toContain('"chat my-local-model"');
    } finally {
      await llm.close();
      workspace.remove();
    }
  }, 120_000);
});
