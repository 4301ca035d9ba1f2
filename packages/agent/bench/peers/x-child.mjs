// x's side of the peer benchmark (peers.bench.ts): the in-memory conversation loop for N steps, each step the
// offline model calling one tool that returns 2,048 characters. Plain `node` on the built package, no loader,
// so the whole process (start-up, import, loop, exit) is what the parent times. Persists nothing: the events
// live in a memory store and go away with the process.
const steps = Number(process.argv[2]);
const importStart = performance.now();
const { Agent, Conversation, createOfflineLLM, defineTool } = await import('../../dist/index.js');
const { createMemoryFileStore } = await import('@x/store');
const { z } = await import('zod');
const importMs = performance.now() - importStart;

const OUTPUT = 'x'.repeat(2048);
const runCommand = defineTool({
  name: 'run_command',
  description: 'Runs a command (returns 2 KB instantly).',
  parameters: z.object({ command: z.string() }),
  execute: () => ({ content: OUTPUT }),
});
const llm = createOfflineLLM({
  script: (_request, turn) => ({
    toolCalls: [{ name: 'run_command', arguments: { command: `ls -la /tmp/dir-${turn}` } }],
  }),
});

const loopStart = performance.now();
const conversation = await Conversation.create({
  agent: new Agent({ llm, tools: [runCommand] }),
  workspace: process.argv[3],
  store: createMemoryFileStore(),
  // The peer's `stopWhen: stepCountIs(N)`: N model calls, N tool calls.
  maxIterationsPerRun: steps,
  ...(process.env.BENCH_X_SANDBOX === 'unsandboxed' ? { sandbox: { mode: 'unsandboxed' } } : {}),
});
await conversation.sendMessage('Benchmark task');
const result = await conversation.run();
await conversation.close();
const loopMs = performance.now() - loopStart;
if (!result.reachedIterationLimit || result.iterations !== steps) {
  throw new Error(`the loop ran ${result.iterations} of ${steps} steps (${result.status})`);
}
// CPU of the whole process (start-up, import, loop; user + system, all threads): the figure a loaded machine
// disturbs least.
const { user, system } = process.cpuUsage();
process.stdout.write(`${JSON.stringify({ importMs, loopMs, cpuMs: (user + system) / 1000 })}\n`);
