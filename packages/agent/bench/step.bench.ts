// Framework cost per agent step: everything except the model's time. The model is an in-process
// LLM that answers instantly with one tool call; the tool returns 2,048 characters of output
// instantly; persistence is the local filesystem (fsync and not). The time of step n is the interval
// between the model being asked for step n and for step n + 1, so it covers reading the view, building
// messages, parsing the tool call, emitting and persisting the action and observation events, state
// updates and the base_state.json checkpoint.
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFileStore } from '@x/store';
import { z } from 'zod';
import { Agent, Conversation, defineTool, type LLM, type LLMResponse } from '../src/index.js';

const STEPS = Number(process.env.BENCH_STEPS ?? 1000);
const OUTPUT = 'x'.repeat(2048);

const outputTool = defineTool({
  name: 'run_command',
  description: 'Runs a command (benchmark stand-in that returns 2 KB instantly).',
  parameters: z.object({ command: z.string() }),
  execute: () => ({ content: OUTPUT }),
});

function instantLLM(askedAt: number[]): LLM {
  let n = 0;
  return {
    model: 'bench',
    usageId: 'default',
    offline: true,
    async complete(): Promise<LLMResponse> {
      askedAt.push(performance.now());
      n += 1;
      const call =
        n > STEPS
          ? { id: `call-${n}`, name: 'finish', arguments: '{"message": "done"}', origin: 'completion' as const }
          : {
              id: `call-${n}`,
              name: 'run_command',
              arguments: JSON.stringify({
                command: `ls -la /tmp/dir-${n} && cat file-${n}.txt | head -n 40`,
                summary: `step ${n}`,
              }),
              origin: 'completion' as const,
            };
      return {
        id: `resp-${n}`,
        message: { role: 'assistant', content: [], tool_calls: [call], thinking_blocks: [] },
        finishReason: 'tool_calls',
        usage: null,
        cost: 0,
        latencySeconds: 0,
      };
    },
  };
}

async function measure(durability: 'fsync' | 'none' | 'memory'): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'x-step-bench-'));
  const askedAt: number[] = [];
  try {
    const agent = new Agent({ llm: instantLLM(askedAt), tools: [outputTool] });
    const conversation = await Conversation.create({
      agent,
      workspace: dir,
      persistenceDir: dir,
      ...(durability === 'memory' ? { store: createMemoryFileStore() } : { durability }),
      maxIterationsPerRun: STEPS + 5,
    });
    await conversation.sendMessage('Benchmark task');
    const result = await conversation.run();
    if (result.status !== 'finished') throw new Error(`benchmark run ended ${result.status}`);
    await conversation.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return askedAt.slice(1).map((time, index) => time - (askedAt[index] ?? time));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Median step time over a window around step n (steps are 1-based). */
function around(stepTimes: number[], n: number): number {
  const start = Math.max(0, n - 6);
  return median(stepTimes.slice(start, Math.min(stepTimes.length, n + 5)));
}

console.log(`agent step benchmark — node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`);
console.log(
  'reference (Python, median): 2.9 / 9.3 / 79.6 ms at step 10 / 100 / 1,000; target ≤ 1 ms at 1,000, no growth',
);
for (const durability of ['memory', 'none', 'fsync'] as const) {
  const stepTimes = await measure(durability);
  const points = [10, 100, 1000].filter((n) => n <= STEPS);
  const figures = points.map((n) => `step ${n}: ${around(stepTimes, n).toFixed(2)} ms`).join('  ');
  console.log(`${durability === 'memory' ? 'memory store      ' : `fs durability=${durability.padEnd(5)}`} ${figures}`);
}
