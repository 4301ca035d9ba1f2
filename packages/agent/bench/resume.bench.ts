// Cold resume of a long conversation: 100,000 events on the local filesystem (a SystemPromptEvent, a
// user message, then alternating terminal-like actions and 2 KB observations, as performance.md
// defines), with the base_state.json our conversations write. The resume runs in a fresh child process
// on the built package (bench/resume-child.mjs, plain node), so its time and memory are a cold start's.
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
    // The child is a separate plain-node script: a benchmark must never spawn itself.
    const childScript = fileURLToPath(new URL('./resume-child.mjs', import.meta.url));
    const child = spawnSync(process.execPath, [childScript, root, id], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`resume child failed: ${child.stderr}`);
    runs.push(JSON.parse(child.stdout.trim().split('\n').at(-1) as string));
  }
  runs.sort((a, b) => a.elapsed - b.elapsed);
  const median = runs[1];
  console.log(`resume benchmark — node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`);
  console.log(`reference (Python): 8.6 s and 695 MB RSS for 100k events; target ≤ 200 ms and ≤ 100 MB`);
  console.log(
    `resume ${median.events} events: ${median.elapsed.toFixed(1)} ms (median of 3 cold processes), ` +
      `RSS ${(median.rss / 2 ** 20).toFixed(0)} MB for the whole process (+${(median.rssDelta / 2 ** 20).toFixed(1)} MB during the resume)`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
