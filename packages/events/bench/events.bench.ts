/**
 * Conversion and View benchmark (performance.md, "View + events → messages, 10k events in memory").
 * Run: pnpm --filter @x/events bench. Prints medians over several runs, next to JSON.parse /
 * JSON.stringify of the same data (the floor) and the Python reference's figure.
 */
import { cpus, platform, release, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  type AnyEvent,
  createEvent,
  eventsToMessages,
  parseEventJson,
  pythonJsonDumps,
  serializeEvent,
  toChatCompletionsMessages,
  View,
} from '../src/index.js';

const EVENT_COUNT = Number(process.env.BENCH_EVENTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const REFERENCE_VIEW_AND_MESSAGES_MS = 96;
const TARGET_VIEW_AND_MESSAGES_MS = 10;

const text = (value: string) => ({ cache_prompt: false, type: 'text' as const, text: value });
const filler = (length: number, seed: number) => {
  const words = ['build', 'test', 'src', 'index.ts', 'ok', 'PASS', 'error', 'module', 'import', 'node'];
  let out = '';
  for (let i = 0; out.length < length; i++) out += `${words[(i * 7 + seed) % words.length]} `;
  return out.slice(0, length);
};

/** SystemPrompt (~20 KB with tools), a user message, then terminal-like actions and 2 KB-output observations. */
function buildEvents(): AnyEvent[] {
  const tools = Array.from({ length: 6 }, (_, i) => ({
    description: filler(2_600, i),
    action_type: `Tool${i}Action`,
    observation_type: `Tool${i}Observation`,
    annotations: {
      title: `tool${i}`,
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    title: `tool${i}`,
    kind: `Tool${i}Tool`,
  }));
  const events: AnyEvent[] = [
    createEvent('SystemPromptEvent', { source: 'agent', system_prompt: text(filler(4_000, 1)), tools }),
    createEvent('MessageEvent', {
      source: 'user',
      llm_message: { role: 'user', content: [text('Fix the failing tests in the repository.')] },
    }),
  ];
  for (let step = 0; events.length < EVENT_COUNT; step++) {
    const callId = `call_${step.toString(36).padStart(24, '0')}`;
    const args = {
      command: `cd /workspace/project && npm test -- --filter case-${step} ${filler(120, step)}`,
      timeout: 120,
      security_risk: 'LOW',
      summary: 'run the test suite',
    };
    const actionEvent = createEvent('ActionEvent', {
      source: 'agent',
      thought: [text(`Step ${step}: running the tests again to check the fix.`)],
      action: { kind: 'TerminalAction', command: args.command, is_input: false, timeout: 120, reset: false },
      tool_name: 'terminal',
      tool_call_id: callId,
      tool_call: { id: callId, name: 'terminal', arguments: pythonJsonDumps(args), origin: 'completion' },
      llm_response_id: `chatcmpl-${step.toString(36).padStart(29, 'x')}`,
      security_risk: 'LOW',
      summary: 'run the test suite',
    });
    events.push(actionEvent);
    events.push(
      createEvent('ObservationEvent', {
        source: 'environment',
        tool_name: 'terminal',
        tool_call_id: callId,
        action_id: actionEvent.id,
        observation: {
          kind: 'TerminalObservation',
          content: [text(filler(2_048, step))],
          is_error: false,
          command: args.command,
          exit_code: 0,
          timeout: false,
          metadata: {
            exit_code: 0,
            pid: -1,
            username: 'openhands',
            hostname: 'runtime',
            working_dir: '/workspace/project',
            py_interpreter_path: '/usr/bin/python',
            prefix: '',
            suffix: '',
          },
        },
      }),
    );
  }
  return events;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function measure(run: () => unknown): number {
  for (let i = 0; i < 3; i++) run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

const events = buildEvents();
const texts = events.map(serializeEvent);
const plainValues = texts.map((line) => JSON.parse(line) as unknown);
const totalBytes = texts.reduce((sum, line) => sum + Buffer.byteLength(line), 0);

const rows: [string, number, string][] = [];
const add = (name: string, ms: number, note = '') => rows.push([name, ms, note]);

const jsonParse = measure(() => texts.map((line) => JSON.parse(line)));
add('JSON.parse (floor)', jsonParse);
const parse = measure(() => texts.map((line) => parseEventJson(line)));
add('parseEventJson', parse, `${(parse / jsonParse).toFixed(1)}x JSON.parse`);
const jsonStringify = measure(() => plainValues.map((value) => JSON.stringify(value)));
add('JSON.stringify (floor)', jsonStringify);
const serialize = measure(() => events.map(serializeEvent));
add('serializeEvent', serialize, `${(serialize / jsonStringify).toFixed(1)}x JSON.stringify`);
add(
  'eventsToMessages',
  measure(() => eventsToMessages(events)),
);
add(
  'View.fromEvents',
  measure(() => View.fromEvents(events)),
);
const target = measure(() => eventsToMessages(View.fromEvents(events).events));
add(
  'View.fromEvents + eventsToMessages',
  target,
  `reference ${REFERENCE_VIEW_AND_MESSAGES_MS} ms (${(REFERENCE_VIEW_AND_MESSAGES_MS / target).toFixed(0)}x faster); target ≤ ${TARGET_VIEW_AND_MESSAGES_MS} ms: ${target <= TARGET_VIEW_AND_MESSAGES_MS ? 'met' : 'NOT met'}`,
);
add(
  '  + toChatCompletionsMessages',
  measure(() => toChatCompletionsMessages(eventsToMessages(View.fromEvents(events).events))),
);
add(
  'View.append × 10k (incremental)',
  measure(() => {
    const view = new View();
    for (const event of events) view.append(event);
  }),
);
// One agent step on a 10k history: append the new event (O(1)) and render everything for the LLM.
const prefix = events.slice(0, -1);
const last = events[events.length - 1] as AnyEvent;
const views = Array.from({ length: RUNS + 3 }, () => {
  const view = new View();
  for (const event of prefix) view.append(event);
  return view;
});
let next = 0;
add(
  'one step at 10k: append + messages + chat render',
  measure(() => {
    const view = views[next++] as View;
    view.append(last);
    return toChatCompletionsMessages(eventsToMessages(view.events));
  }),
  'append is O(1); rendering the whole history is O(n)',
);

const cpu = cpus()[0];
console.log(`@x/events conversion benchmark — ${events.length} events, ${(totalBytes / 1e6).toFixed(1)} MB of JSON`);
console.log(
  `machine: ${cpu?.model ?? 'unknown CPU'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${platform()} ${release()}, Node ${process.version}`,
);
console.log(`median of ${RUNS} runs after 3 warm-ups\n`);
const width = Math.max(...rows.map(([name]) => name.length));
for (const [name, ms, note] of rows) console.log(`${name.padEnd(width)}  ${ms.toFixed(2).padStart(8)} ms  ${note}`);
