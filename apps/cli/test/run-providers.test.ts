import { startAnthropicServer, startGeminiServer, startResponsesServer, type WireServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const script = [
  { thinking: 'A thought first.', toolCalls: [{ name: 'think', arguments: { thought: 'plan' } }] },
  { thinking: 'Done now.', toolCalls: [{ name: 'finish', arguments: { message: 'Finished through the provider.' } }] },
];

describe.each([
  {
    model: 'anthropic/claude-sonnet-4-6',
    start: startAnthropicServer,
    env: (url: string) => ({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: url }),
  },
  {
    model: 'gemini/gemini-2.5-flash',
    start: startGeminiServer,
    env: (url: string) => ({ GEMINI_API_KEY: 'gm-test', GEMINI_BASE_URL: url }),
  },
  {
    model: 'openai/o4-mini',
    start: startResponsesServer,
    env: (url: string) => ({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: url }),
  },
])('x run --model $model', ({ model, start, env }) => {
  it('talks to the provider the model names, with its key and endpoint variables', async () => {
    server = await start(script, { apiKey: Object.values(env('')).find((value) => value !== '') as string });
    const home = tempDir();
    const workspace = tempDir();
    try {
      const result = await runCli(['run', 'Think, then finish', '--model', model, '--stream'], {
        env: { X_HOME: home.path, ...env(server.baseURL) },
        cwd: workspace.path,
      });
      expect({ code: result.code, stderr: result.stderr, stdout: result.stdout.slice(-1500) }).toMatchObject({
        code: 0,
        stderr: '',
      });
      expect(result.stdout).toContain(`${model} at ${server.baseURL}`);
      expect(result.stdout).toContain('Finished through the provider.');
      expect(server.requests).toHaveLength(2);
      expect(server.requests.flatMap((request) => request.violations)).toEqual([]);
    } finally {
      home.remove();
      workspace.remove();
    }
  });
});
