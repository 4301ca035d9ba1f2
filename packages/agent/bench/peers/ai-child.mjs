// The Vercel AI SDK's side of the peer benchmark (peers.bench.ts), copied into the SDK's install directory so
// that `ai` and `zod` resolve there: `generateText` with `stopWhen: stepCountIs(N)`, its mock language model
// (`ai/test`) answering each call with one tool call, the same tool returning the same 2,048 characters.
// Persists nothing: the steps live in memory and go away with the process.
const steps = Number(process.argv[2]);
const importStart = performance.now();
const { generateText, stepCountIs, tool } = await import('ai');
const { MockLanguageModelV4 } = await import('ai/test');
const { z } = await import('zod');
const importMs = performance.now() - importStart;

const OUTPUT = 'x'.repeat(2048);
let turn = 0;
const model = new MockLanguageModelV4({
  doGenerate: async () => {
    const n = turn++;
    return {
      content: [
        {
          type: 'tool-call',
          toolCallId: `call-${n}`,
          toolName: 'run_command',
          input: JSON.stringify({ command: `ls -la /tmp/dir-${n}` }),
        },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 5, text: 5, reasoning: 0 },
      },
      warnings: [],
    };
  },
});

const loopStart = performance.now();
const result = await generateText({
  model,
  prompt: 'Benchmark task',
  tools: {
    run_command: tool({
      description: 'Runs a command (returns 2 KB instantly).',
      inputSchema: z.object({ command: z.string() }),
      execute: async () => OUTPUT,
    }),
  },
  stopWhen: stepCountIs(steps),
});
const loopMs = performance.now() - loopStart;
const toolResults = result.steps.reduce((sum, step) => sum + step.toolResults.length, 0);
if (result.steps.length !== steps || toolResults !== steps) {
  throw new Error(`the loop ran ${result.steps.length} steps and ${toolResults} tool calls of ${steps}`);
}
// CPU of the whole process (start-up, import, loop; user + system, all threads): the figure a loaded machine
// disturbs least.
const { user, system } = process.cpuUsage();
process.stdout.write(`${JSON.stringify({ importMs, loopMs, cpuMs: (user + system) / 1000 })}\n`);
