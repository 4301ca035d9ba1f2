// The examples of single capabilities (the sandbox, each native provider, condensation), each run as its own
// process against local servers speaking the vendors' wire protocols.
import {
  startAnthropicServer,
  startGeminiServer,
  startResponsesServer,
  startScriptedLLMServer,
} from '@x/agent/testing';
import { startMotoServer } from '@x/store/testing';
import { describe, expect, it } from 'vitest';
import { describeRun, runExample, toolResults } from './support/run-example.js';

describe('capability examples, each run as a process', () => {
  it('sandbox: the key, the outside file, the host loopback and the host processes are out of reach', async () => {
    // One command, as a model would write it: every probe prints what it found, whatever happens.
    const command = [
      'echo "key: [$OPENAI_API_KEY]"',
      'file=$(sed -n "s/^file //p" targets.txt); port=$(sed -n "s/^port //p" targets.txt)',
      'cat "$file" >/dev/null 2>&1 && echo "outside file: read" || echo "outside file: not there"',
      '(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && echo "host port: reached" || echo "host port: unreachable"',
      'echo "processes seen: $(ls -d /proc/[0-9]* | wc -l)"',
      'echo "written inside" > note.txt && echo "workspace: writable"',
      'touch /usr/x-sandbox-example 2>/dev/null && echo "system: writable" || echo "system: read-only"',
    ].join('\n');
    const server = await startScriptedLLMServer([
      { toolCalls: [{ name: 'terminal', arguments: { command } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Nothing outside the workspace was reachable.' } }] },
    ]);
    try {
      const run = await runExample('sandbox', { OPENAI_API_KEY: 'sk-local-secret', OPENAI_BASE_URL: server.baseURL });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.lines).toContain('policy: {"mode":"none"}');
      expect(run.lines).toContain('key: []');
      expect(run.lines).toContain('outside file: not there');
      expect(run.lines).toContain('host port: unreachable');
      expect(run.lines).toContain('workspace: writable');
      expect(run.lines).toContain('system: read-only');
      expect(run.lines).toContain('note written in the workspace: written inside');
      expect(run.lines).toContain('status: finished');
      // Only the sandbox's own processes: its init, the shell and this command's, never the host's hundreds.
      const seen = Number(run.lines.find((line) => line.startsWith('processes seen: '))?.slice(16));
      expect(seen).toBeGreaterThan(0);
      expect(seen).toBeLessThan(10);
      expect(run.stdout).not.toContain('sk-local-secret');
      expect(toolResults(server.requests[1])).toContain('host port: unreachable');
    } finally {
      await server.close();
    }
  });

  it('switch-providers: Responses, then Anthropic, then Gemini, each given the whole history in its format', async () => {
    const lookup = (country: string) => ({ toolCalls: [{ name: 'lookup_capital', arguments: { country } }] });
    const [responses, anthropic, gemini] = await Promise.all([
      startResponsesServer([lookup('France'), { text: 'The capital of France is Paris.' }]),
      startAnthropicServer([lookup('Japan'), { text: 'The capital of Japan is Tokyo.' }]),
      startGeminiServer([{ text: 'We looked up Paris and Tokyo.' }]),
    ]);
    try {
      const run = await runExample('switch-providers', {
        OPENAI_API_KEY: 'sk-local',
        OPENAI_BASE_URL: responses.baseURL,
        ANTHROPIC_API_KEY: 'sk-ant-local',
        ANTHROPIC_BASE_URL: anthropic.baseURL,
        GEMINI_API_KEY: 'gemini-local',
        GEMINI_BASE_URL: gemini.baseURL,
      });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.lines).toEqual([
        'openai-responses/gpt-5-mini: The capital of France is Paris. (finished)',
        'anthropic/claude-sonnet-4-6: The capital of Japan is Tokyo. (finished)',
        'gemini/gemini-2.5-flash: We looked up Paris and Tokyo. (finished)',
      ]);
      expect([responses, anthropic, gemini].map((server) => server.requests.length)).toEqual([2, 2, 1]);
      // Each vendor's server checks its own protocol; none found a violation in the history it was sent.
      const violations = [responses, anthropic, gemini].flatMap((server) =>
        server.requests.flatMap((r) => r.violations),
      );
      expect(violations).toEqual([]);
      // Claude's first request carries the Responses turn's tool call and result; Gemini's carries both vendors'.
      const claudeSaw = JSON.stringify(anthropic.requests[0]?.body);
      expect(claudeSaw).toContain('France');
      expect(claudeSaw).toContain('Paris');
      const geminiSaw = JSON.stringify(gemini.requests[0]?.body);
      for (const text of ['France', 'Paris', 'Japan', 'Tokyo', 'lookup_capital']) expect(geminiSaw).toContain(text);
    } finally {
      await Promise.all([responses.close(), anthropic.close(), gemini.close()]);
    }
  });

  it('condensation: past 10 events the model summarizes the middle; the log keeps all, the view shrinks', async () => {
    const summarizing = (body: Record<string, unknown>) => JSON.stringify(body.messages).includes('<EVENT>');
    let page = 0;
    const server = await startScriptedLLMServer((body) => {
      if (summarizing(body)) return { content: 'Pages read so far: 10, 20, 30 units.' };
      page += 1;
      if (page <= 8) return { toolCalls: [{ name: 'read_page', arguments: { page } }] };
      return { toolCalls: [{ name: 'finish', arguments: { message: '360 units in total.' } }] };
    });
    try {
      const run = await runExample('condensation', { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.baseURL });
      expect(run.code, describeRun(run)).toBe(0);
      const condensed = run.lines.filter((line) => line.startsWith('condensed: '));
      expect(condensed.length).toBeGreaterThanOrEqual(1);
      expect(condensed[0]).toMatch(/^condensed: \d+ events forgotten; summary: Pages read so far: 10, 20, 30 units\.$/);
      const [, logged, inView] =
        /^status: finished; (\d+) events in the log, (\d+) in the view$/.exec(run.lines.at(-1) ?? '') ?? [];
      expect(Number(inView)).toBeLessThan(Number(logged));
      expect(Number(inView)).toBeLessThanOrEqual(12);
      // After the first condensation, the model is sent the summary instead of the forgotten pages.
      const summarizer = server.requests.findIndex(summarizing);
      expect(summarizer).toBeGreaterThan(0);
      const next = JSON.stringify(server.requests[summarizer + 1]?.messages);
      expect(next).toContain('Pages read so far');
      expect(next).not.toContain('Page 1: 10 units shipped.');
    } finally {
      await server.close();
    }
  });

  it('telemetry: the run, its model calls and its tool call as nested spans, joined to the log by response id', async () => {
    const server = await startScriptedLLMServer([
      { toolCalls: [{ name: 'word_count', arguments: { text: 'to be or not to be' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Six words.' } }] },
    ]);
    try {
      const run = await runExample('telemetry', { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.baseURL });
      expect(run.code, describeRun(run)).toBe(0);
      const chat = /^ {2}chat gpt-4o-mini \(\d+ in, \d+ out\) \[response id in the log\]$/;
      expect(run.lines[0]).toBe('invoke_agent Agent');
      expect(run.lines.filter((line) => chat.test(line))).toHaveLength(2);
      expect(run.lines).toContain('  execute_tool word_count');
      expect(run.lines).toContain('  execute_tool finish');
      expect(run.stdout).not.toContain('sk-local');
    } finally {
      await server.close();
    }
  });

  it('secrets: the command that names the secret gets it; no observation, request or file holds its value', async () => {
    const server = await startScriptedLLMServer([
      {
        toolCalls: [
          {
            name: 'terminal',
            arguments: { command: 'echo "token: $DEPLOY_TOKEN ($(printf %s "$DEPLOY_TOKEN" | wc -c) chars)"' },
          },
        ],
      },
      { toolCalls: [{ name: 'finish', arguments: { message: 'The token is set.' } }] },
    ]);
    try {
      const run = await runExample('secrets', { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.baseURL });
      expect(run.code, describeRun(run)).toBe(0);
      // The command saw the value (its length), and what was recorded shows it masked.
      expect(run.lines, describeRun(run)).toContain('token: <secret-hidden> (19 chars)');
      expect(run.lines).toContain('status: finished');
      expect(run.lines.at(-1)).toMatch(/^files with the value: 0 of \d+$/);
      expect(Number(/of (\d+)$/.exec(run.lines.at(-1) ?? '')?.[1])).toBeGreaterThan(3);
      expect(run.stdout).not.toContain('tok-3f9a61c2-deploy');
      expect(JSON.stringify(server.requests)).not.toContain('tok-3f9a61c2-deploy');
      expect(toolResults(server.requests[1])).toContain('<secret-hidden>');
    } finally {
      await server.close();
    }
  });

  it('session-state: a tool and the owner change the session state and save artifact versions; a resume has them', async () => {
    const server = await startScriptedLLMServer([
      { toolCalls: [{ name: 'save_draft', arguments: { text: 'v1: fixes.' } }] },
      { toolCalls: [{ name: 'save_draft', arguments: { text: 'v2: faster resume, clearer errors.' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Two drafts saved.' } }] },
    ]);
    try {
      const run = await runExample('session-state', { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.baseURL });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.lines).toEqual([
        'session state: {"audience":"customers","tone":"plain","drafts":2,"last_saved_by":"save_draft"}',
        'versions: 1, 2',
        'first draft: v1: fixes.',
        'latest draft: v2: faster resume, clearer errors.',
      ]);
      expect(toolResults(server.requests[2])).toContain('saved draft 2');
    } finally {
      await server.close();
    }
  });

  it('s3-store: a conversation written to a bucket (moto) is resumed from a fresh store and its chain verifies', async () => {
    const moto = await startMotoServer();
    const server = await startScriptedLLMServer([
      { content: 'Noted.' },
      { content: 'You asked me to remember "lighthouse".' },
    ]);
    try {
      const { CreateBucketCommand, S3Client } = await import('@aws-sdk/client-s3');
      const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
      const client = new S3Client({ endpoint: moto.endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
      await client.send(new CreateBucketCommand({ Bucket: 'x-examples' }));
      client.destroy();
      const run = await runExample('s3-store', {
        OPENAI_API_KEY: 'sk-local',
        OPENAI_BASE_URL: server.baseURL,
        X_S3_BUCKET: 'x-examples',
        AWS_ENDPOINT_URL_S3: moto.endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
      });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.lines[0]).toBe('answer: You asked me to remember "lighthouse".');
      // Two messages and two answers, at least, all from the bucket and chained.
      expect(run.lines[1]).toMatch(/^chain: verified, \d+ events$/);
      expect(Number(/(\d+) events$/.exec(run.lines[1] ?? '')?.[1])).toBeGreaterThanOrEqual(4);
      // The resumed model saw the first turn, which only the bucket held.
      expect(JSON.stringify(server.requests[1]?.messages)).toContain('lighthouse');
    } finally {
      await server.close();
      await moto.stop();
    }
  });
});
