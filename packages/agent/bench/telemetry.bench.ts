// Framework cost per agent step with tracing off (no OpenTelemetry SDK registered: the API's no-op
// tracer and meter) and on (the SDK registered with an async context manager, a span processor and a
// metric reader whose exporter drops everything, so only x's own span and attribute work is timed).
// Same instant model and 2 KB tool as step.bench.ts, on the memory store.
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { createMemoryFileStore } from '@x/store';
import { z } from 'zod';
import type { LLM, LLMResponse } from '../src/index.js';

// BENCH_SRC=<path to another checkout's src/index.ts> times that code instead (tracing off only), for A/B runs.
const x = (await import(process.env.BENCH_SRC ?? '../src/index.js')) as typeof import('../src/index.js');
const { Agent, Conversation, defineTool } = x;

const STEPS = Number(process.env.BENCH_STEPS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
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
      const name = n > STEPS ? 'finish' : 'run_command';
      const args = n > STEPS ? '{"message": "done"}' : JSON.stringify({ command: `ls -la /tmp/dir-${n}` });
      return {
        id: `resp-${n}`,
        message: {
          role: 'assistant',
          content: [],
          tool_calls: [{ id: `call-${n}`, name, arguments: args, origin: 'completion' }],
          thinking_blocks: [],
        },
        finishReason: 'tool_calls',
        usage: { model: 'bench', prompt_tokens: 100, completion_tokens: 10 } as LLMResponse['usage'],
        cost: 0,
        latencySeconds: 0,
      };
    },
  };
}

async function stepTimes(): Promise<number[]> {
  const askedAt: number[] = [];
  const agent = new Agent({ llm: instantLLM(askedAt), tools: [outputTool] });
  const conversation = await Conversation.create({
    agent,
    workspace: '/tmp',
    persistenceDir: '/tmp/x-telemetry-bench',
    store: createMemoryFileStore(),
    maxIterationsPerRun: STEPS + 5,
  });
  await conversation.sendMessage('Benchmark task');
  const result = await conversation.run();
  if (result.status !== 'finished') throw new Error(`benchmark run ended ${result.status}`);
  await conversation.close();
  return askedAt.slice(1).map((time, index) => time - (askedAt[index] ?? time));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function medianStep(): Promise<number> {
  const all: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) all.push(...(await stepTimes()));
  return median(all);
}

class DroppingExporter implements SpanExporter {
  exported = 0;
  export(spans: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    this.exported += spans.length;
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}
class IdleReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

console.log(`agent step with telemetry — node ${process.version}, ${STEPS} steps × ${ROUNDS} runs, memory store`);
await stepTimes(); // warm-up
const off = await medianStep();
console.log(`tracing off (no SDK registered): ${off.toFixed(3)} ms per step (median)`);
if (process.env.BENCH_SRC !== undefined) process.exit(0);

const exporter = new DroppingExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(tracerProvider);
metrics.setGlobalMeterProvider(meterProvider);
const on = await medianStep();
console.log(
  `tracing on (SDK, spans dropped):  ${on.toFixed(3)} ms per step (median), ${(exporter.exported / (STEPS * ROUNDS)).toFixed(1)} spans per step`,
);
await tracerProvider.shutdown();
await meterProvider.shutdown();
