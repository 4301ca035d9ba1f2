import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackground } from './helpers/background.js';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { tempDir } from './helpers/run-cli.js';

const home = tempDir();
const workspace = tempDir();
let receiver: OtlpReceiver;
let endpoint = '';

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  endpoint = receiver.endpoint;
});
afterAll(async () => {
  await receiver.close();
  home.remove();
  workspace.remove();
});

describe('x serve with OTEL_* variables', () => {
  it('exports the runs’ spans over OTLP/HTTP and, with --verbose, logs JSON lines on stdout with trace ids', async () => {
    const server = startBackground(
      [
        'serve',
        '--verbose',
        '--testing',
        '--port',
        '0',
        '--data-dir',
        `${home.path}/s`,
        '--workspace-root',
        workspace.path,
      ],
      {
        X_HOME: home.path,
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_SERVICE_NAME: 'x-serve-test',
      },
    );
    const url = (await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, undefined, 'stderr'))[1] ?? '';
    await server.waitFor(/telemetry\s+OTLP http:\/\/127\.0\.0\.1:\d+\/v1\/traces/, undefined, 'stderr');
    const response = await fetch(`${url}/api/conversations`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      },
      body: JSON.stringify({
        agent: {
          llm: { model: 'offline' },
          x_offline_script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'Traced.' } }] }],
        },
        workspace: { working_dir: workspace.path },
        initial_message: { role: 'user', content: [{ type: 'text', text: 'hi' }], run: true },
      }),
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${url}/api/conversations/${id}`)).json()) as { execution_status: string })
            .execution_status,
      )
      .toBe('finished');
    expect(await server.interrupt()).toBe(0);

    const traces = receiver.received.filter((request) => request.path === '/v1/traces').map((request) => request.body);
    const all = traces.join('\n');
    expect(all).toContain('"invoke_agent Agent"');
    expect(all).toContain('"execute_tool finish"');
    expect(all).toContain('x-serve-test');
    expect(all).toContain(id);

    // The server's log is JSON lines on stdout (not a terminal here), with the trace and conversation ids; the
    // human banner and the CLI's --verbose diagnostics go to stderr.
    const lines = server.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.msg === 'run started')).toMatchObject({
      conversationId: id,
      traceId: '0af7651916cd43dd8448eb211c80319c',
    });
    expect(server.stdout).not.toContain('listening on');
    expect(server.stderr).not.toContain('"level"');
    expect(server.stderr).toContain(`x: exporting spans to ${endpoint}/v1/traces`);
  });
});
