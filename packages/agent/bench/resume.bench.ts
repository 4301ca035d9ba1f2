// Cold resume of a long conversation: 100,000 events on the local filesystem (a SystemPromptEvent, a
// user message, then alternating terminal-like actions and 2 KB observations, as performance.md
// defines), with the base_state.json our conversations write. The resume runs in a fresh child process
// so its time and memory are those of a cold start.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyEvent, createEvent, serializeEvent } from '@x/events';
import { eventFileName } from '@x/store';
import { buildBaseState } from '../src/conversation/base-state.js';
import { applyEvent, conversationDirName, initialConversationState } from '../src/index.js';

const COUNT = Number(process.env.BENCH_EVENTS ?? 100_000);

if (process.argv[2] === '--child') {
  const [, , , root, id] = process.argv;
  const { Conversation, createAgent, createOfflineLLM } = await import('../src/index.js');
  const agent = createAgent({ llm: createOfflineLLM({ script: [] }) });
  if (process.env.BENCH_PHASES) {
    const { createLocalFileStore, EventLog } = await import('@x/store');
    const store = createLocalFileStore({ root: root as string });
    const dirName = conversationDirName(id as string);
    let t = performance.now();
    const log = await EventLog.open(store, { dir: `${dirName}/events` });
    console.error(`open ${(performance.now() - t).toFixed(1)} ms`);
    t = performance.now();
    await store.read(`${dirName}/base_state.json`);
    console.error(`base_state ${(performance.now() - t).toFixed(1)} ms`);
    t = performance.now();
    await log.range(log.length - 64, log.length);
    console.error(`tail ${(performance.now() - t).toFixed(1)} ms`);
  }
  const before = process.memoryUsage().rss;
  const start = performance.now();
  const conversation = await Conversation.resume(id as string, { agent, persistenceDir: root as string });
  const elapsed = performance.now() - start;
  const after = process.memoryUsage().rss;
  console.log(
    JSON.stringify({ elapsed, rss: after, rssDelta: after - before, events: conversation.state.event_count }),
  );
  process.exit(0);
}

function* generate(): Generator<AnyEvent> {
  yield createEvent('SystemPromptEvent', {
    system_prompt: { type: 'text', text: 'You are a helpful agent. '.repeat(800) },
    tools: [],
  });
  yield createEvent('MessageEvent', {
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text: 'Run the checks.' }] },
  });
  for (let n = 0; n < (COUNT - 2) / 2; n++) {
    const callId = `call_${n}`;
    const action = createEvent('ActionEvent', {
      thought: [{ type: 'text', text: `Step ${n}: listing the build output to see what changed since the last run.` }],
      action: { command: `ls -la build/output-${n} && tail -n 50 build/log-${n}.txt`, kind: 'TerminalAction' },
      tool_name: 'terminal',
      tool_call_id: callId,
      tool_call: {
        id: callId,
        name: 'terminal',
        arguments: JSON.stringify({ command: `ls -la build/output-${n}` }),
        origin: 'completion',
      },
      llm_response_id: `chatcmpl-${n}`,
      summary: `list build output ${n}`,
    });
    yield action;
    yield createEvent('ObservationEvent', {
      tool_name: 'terminal',
      tool_call_id: callId,
      action_id: action.id,
      observation: {
        content: [{ type: 'text', text: 'o'.repeat(2048) }],
        is_error: false,
        kind: 'TerminalObservation',
      },
    });
  }
}

const root = await mkdtemp(join(tmpdir(), 'x-resume-bench-'));
try {
  const id = crypto.randomUUID();
  const dir = join(root, conversationDirName(id));
  await mkdir(join(dir, 'events'), { recursive: true });
  let state = initialConversationState({ id });
  let index = 0;
  const pending: Promise<void>[] = [];
  for (const event of generate()) {
    pending.push(writeFile(join(dir, 'events', eventFileName(index, event.id)), serializeEvent(event)));
    if (pending.length >= 256) await Promise.all(pending.splice(0));
    state = applyEvent(state, event);
    index += 1;
  }
  await Promise.all(pending);
  const base = buildBaseState({
    state,
    agent: { kind: 'Agent' },
    workspace: root,
    persistenceDir: root,
    secretRegistry: { secret_sources: {} },
  });
  await writeFile(join(dir, 'base_state.json'), JSON.stringify(base));

  const runs = [];
  for (let run = 0; run < 3; run++) {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', root, id],
      { encoding: 'utf8' },
    );
    if (child.status !== 0) throw new Error(child.stderr);
    if (process.env.BENCH_PHASES) console.log(child.stderr.trim());
    runs.push(JSON.parse(child.stdout.trim().split('\n').at(-1) as string));
  }
  runs.sort((a, b) => a.elapsed - b.elapsed);
  const median = runs[1];
  console.log(`resume benchmark — node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`);
  console.log(`reference (Python): 8.6 s and 695 MB RSS for 100k events; target ≤ 200 ms and ≤ 100 MB`);
  console.log(
    `resume ${median.events} events: ${median.elapsed.toFixed(1)} ms (median of 3 cold processes), ` +
      `RSS ${(median.rss / 2 ** 20).toFixed(0)} MB total, +${(median.rssDelta / 2 ** 20).toFixed(1)} MB for the resume`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
