// The examples of single capabilities (the sandbox, each native provider, condensation), each run as its own
// process against local servers speaking the vendors' wire protocols.
import {
  startAnthropicServer,
  startGeminiServer,
  startResponsesServer,
  startScriptedLLMServer,
} from '@x/agent/testing';
import { describe, expect, it } from 'vitest';
import { describeRun, runExample } from './support/run-example.js';

/** The text of the `role: tool` messages of a Chat Completions request. */
function toolResults(request: Record<string, unknown> | undefined): string {
  const messages = (request?.messages ?? []) as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((message) => message.role === 'tool'));
}

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
});
