// Cold resume of a long conversation, up to and including its first new step: 100,000 events on the
// local filesystem (a SystemPromptEvent, a user message, then alternating terminal-like actions and 2 KB
// observations, as performance.md defines, each action after the stats update of its model response), written as a real log holds them (each event's slot claim
// in events/.slots and the event file hard-linked from it, every event's parent_id set), with the
// base_state.json and the view checkpoint our conversations write. A conversation that long has been
// condensed: a Condensation (summary kept at offset 2) whenever the view passes 240 events, the
// LLMSummarizingCondenser's default max_size, so the view stays bounded as in any real run. The same
// conversation uncondensed (no condenser configured: every event is in the view) is measured beside it, with
// durability none: its first step reads, decodes and renders every event.
//
// Each run is a fresh child process on the built package (bench/resume-child.mjs, plain node) after the
// page cache was dropped (`echo 1 > /proc/sys/vm/drop_caches`; the output says when the machine does
// not allow it): it resumes, sends a message and runs the first new step. Median of RUNS runs. The
// uncondensed row has a floor beside it, taken the same way: a plain node process that reads and
// JSON.parses every pack, keeping the values (bench/resume-floor-child.mjs), and x's ratio to it.
import { execFileSync, spawnSync } from 'node:child_process';
import { link, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyEvent, createEvent, ROOT_PARENT_ID, serializeEvent, View, withParent } from '@x/events';
import { createLocalFileStore, EventLog, eventFileName } from '@x/store';
import { buildBaseState } from '../src/conversation/base-state.js';
import { buildViewCheckpoint, VIEW_CHECKPOINT_FILE } from '../src/conversation/view-checkpoint/index.js';
import { applyEvent, conversationDirName, initialConversationState, type LLMResponse } from '../src/index.js';
import { accumulateStats } from '../src/state/accumulate-stats.js';

const COUNT = Number(process.env.BENCH_EVENTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONDENSE_AT = 240;

function* generate(view: View, condensed: boolean): Generator<AnyEvent> {
  let parent: string = ROOT_PARENT_ID;
  const stamp = <T extends AnyEvent>(event: T): T => {
    // As a conversation stamps it (`withParent`: parent_id after source, so the text stays canonical).
    const stamped = withParent(event, parent);
    parent = event.id;
    view.append(stamped);
    return stamped;
  };
  yield stamp(
    createEvent('SystemPromptEvent', {
      system_prompt: { type: 'text', text: 'You are a helpful agent. '.repeat(800) },
      tools: [],
    }),
  );
  yield stamp(
    createEvent('MessageEvent', {
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'Run the checks.' }] },
    }),
  );
  let written = 2;
  let stats = initialConversationState({ id: 'bench' }).stats;
  for (let n = 0; written < COUNT; n++) {
    if (condensed && view.events.length >= CONDENSE_AT && written + 3 <= COUNT) {
      yield stamp(
        createEvent('Condensation', {
          forgotten_event_ids: view.events.slice(2).map((event) => event.id),
          summary: `Summary of steps up to ${n}: the build output was listed and checked.`,
          summary_offset: 2,
          llm_response_id: `condense-${n}`,
        }),
      );
      written += 1;
    }
    // As a conversation records each model response: its stats update, written with the action in one
    // round, whose parent is HEAD and which does not move it (not in the view either).
    stats = accumulateStats(stats, { usageId: 'default', model: 'gpt-5-mini' }, responseOf(n));
    yield withParent(createEvent('ConversationStateUpdateEvent', { key: 'stats', value: stats }), parent);
    written += 1;
    if (written >= COUNT) break;
    const callId = `call_${n}`;
    const action = stamp(
      createEvent('ActionEvent', {
        thought: [
          { type: 'text', text: `Step ${n}: listing the build output to see what changed since the last run.` },
        ],
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
      }),
    );
    yield action;
    written += 1;
    if (written >= COUNT) break;
    yield stamp(
      createEvent('ObservationEvent', {
        tool_name: 'terminal',
        tool_call_id: callId,
        action_id: action.id,
        observation: {
          content: [{ type: 'text', text: 'o'.repeat(2048) }],
          is_error: false,
          kind: 'TerminalObservation',
        },
      }),
    );
    written += 1;
  }
}

/** What the model answered at step `n`, as far as the stats need it (the offline model's usage figures). */
function responseOf(n: number): LLMResponse {
  const prompt = 1_000 + n * 700;
  return {
    id: `chatcmpl-${n}`,
    message: { role: 'assistant', content: [], thinking_blocks: [] },
    finishReason: 'tool_calls',
    usage: {
      model: 'gpt-5-mini',
      prompt_tokens: prompt,
      completion_tokens: 60,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      context_window: 0,
      per_turn_token: prompt + 60,
      response_id: `chatcmpl-${n}`,
    },
    cost: 0.0001 * n,
    latencySeconds: 0.5,
  };
}

function dropPageCache(): string | undefined {
  try {
    execFileSync('sync');
    execFileSync('sh', ['-c', 'echo 1 > /proc/sys/vm/drop_caches'], { stdio: 'ignore' });
    return undefined;
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Writes a conversation as a real log holds it, under `root`; returns its id. The segment layout's is written by
 * EventLog appends (its records carry the hash chain), closed, so its segment index is written as a real close does.
 */
async function writeConversation(
  root: string,
  condensed: boolean,
  layout: 'files' | 'segment' = 'files',
): Promise<string> {
  const id = crypto.randomUUID();
  const dir = join(root, conversationDirName(id));
  const slots = join(dir, 'events', '.slots');
  await mkdir(slots, { recursive: true });
  let state = initialConversationState({ id });
  const view = new View();
  let index = 0;
  const pending: Promise<void>[] = [];
  const segment =
    layout === 'segment'
      ? await EventLog.open(createLocalFileStore({ root, durability: 'none' }), {
          dir: `${conversationDirName(id)}/events`,
          layout: 'segment',
        })
      : undefined;
  let batch: AnyEvent[] = [];
  for (const event of generate(view, condensed)) {
    if (segment) {
      batch.push(event);
      if (batch.length === 256) await segment.appendMany(batch.splice(0));
      state = applyEvent(state, event);
      continue;
    }
    const at = index++;
    const claim = join(slots, `${String(at).padStart(5, '0')}.json`);
    pending.push(
      writeFile(claim, serializeEvent(event), { flag: 'wx' }).then(() =>
        link(claim, join(dir, 'events', eventFileName(at, event.id))),
      ),
    );
    if (pending.length >= 256) await Promise.all(pending.splice(0));
    state = applyEvent(state, event);
  }
  await Promise.all(pending);
  if (segment) {
    if (batch.length > 0) await segment.appendMany(batch);
    batch = [];
    await segment.close();
  }
  const base = buildBaseState({
    state,
    agent: { kind: 'Agent' },
    workspace: root,
    persistenceDir: root,
    secretRegistry: { secret_sources: {} },
  });
  await writeFile(join(dir, 'base_state.json'), JSON.stringify(base));
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), {
    dir: `${conversationDirName(id)}/events`,
  });
  const checkpoint = buildViewCheckpoint(view, state, log);
  if (checkpoint !== undefined) await writeFile(join(dir, VIEW_CHECKPOINT_FILE), JSON.stringify(checkpoint));
  else if (condensed) throw new Error('the generated view cannot be checkpointed');
  // As a real conversation's last process leaves it: closing the log writes its name index
  // (events/.slots/name-index), so the resume's open need not list 100k names.
  await log.close();
  return id;
}

/** RUNS cold runs of a child script after a warm-up: what each printed last, and why the cache was not dropped. */
function medianRuns(script: string, args: readonly string[]): { runs: Record<string, number>[]; notDropped?: string } {
  const runs: Record<string, number>[] = [];
  let notDropped: string | undefined;
  for (let run = 0; run <= RUNS; run++) {
    notDropped = dropPageCache();
    // The child is a separate plain-node script: a benchmark must never spawn itself.
    const child = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`${script} failed: ${child.stderr}`);
    if (run > 0) runs.push(JSON.parse(child.stdout.trim().split('\n').at(-1) as string));
  }
  return { runs, notDropped };
}

/**
 * The uncondensed row's floor, taken the same way (fresh processes, page cache dropped, median): a plain node
 * process that reads every pack of the log and JSON.parses it, keeping the values (bench/resume-floor-child.mjs),
 * the least any reader that materialises the events pays. Runs after the row, whose warm-up wrote the packs.
 */
function printFloor(row: {
  id: string;
  elapsed: number;
  rss: number;
  cpu: number;
  targetMs: number;
  targetMb: number;
}) {
  const packs = join(root, conversationDirName(row.id), 'events', '.slots', 'packs');
  const script = fileURLToPath(new URL('./resume-floor-child.mjs', import.meta.url));
  const { runs } = medianRuns(script, [packs]);
  const pick = (key: string) => median(runs.map((run) => run[key]!));
  const elapsed = pick('elapsed');
  const rss = pick('rss') / 2 ** 20;
  console.log(
    `  floor: plain node reading and JSON.parsing every pack (${pick('events')} events), keeping the values: ` +
      `${elapsed.toFixed(1)} ms (CPU ${pick('cpu').toFixed(0)} ms), peak RSS ${rss.toFixed(0)} MB; ` +
      `x is ${(row.elapsed / elapsed).toFixed(2)}× its time (CPU ${(row.cpu / pick('cpu')).toFixed(2)}×) and ${(row.rss / rss).toFixed(2)}× its peak RSS`,
  );
  if (rss > row.targetMb) {
    console.log(
      `  the memory target ≤ ${row.targetMb} MB is below this floor (${rss.toFixed(0)} MB): no reader that materialises every event meets it`,
    );
  }
  if (elapsed > row.targetMs) {
    console.log(`  the time target ≤ ${row.targetMs} ms is below this floor (${elapsed.toFixed(0)} ms)`);
  }
}

const root = await mkdtemp(join(tmpdir(), 'x-resume-bench-'));
try {
  const condensedId = await writeConversation(root, true);
  const uncondensedId = await writeConversation(root, false);
  // BENCH_SEGMENT=0 leaves out the segment layout's row (its conversation takes a while to write by appends).
  const segmentId = process.env.BENCH_SEGMENT === '0' ? undefined : await writeConversation(root, true, 'segment');

  console.log(`# resume benchmark — node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`);
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' / ')} (a loaded machine makes absolute figures noisy)`,
  );
  console.log(
    'reference (Python): 8.6 s and 695 MB RSS to resume 100k events (it reads every event); target, up to and including',
  );
  console.log('  the first new step: ≤ 200 ms and ≤ 100 MB RSS condensed, ≤ 600 ms and ≤ 150 MB uncondensed');
  const childScript = fileURLToPath(new URL('./resume-child.mjs', import.meta.url));
  const cases = [
    { label: 'condensed every 240 events', id: condensedId, durability: 'none', targetMs: 200, targetMb: 100 },
    { label: 'condensed every 240 events', id: condensedId, durability: 'fsync', targetMs: 200, targetMb: 100 },
    { label: 'uncondensed', id: uncondensedId, durability: 'none', targetMs: 600, targetMb: 150, floor: true },
    ...(segmentId === undefined
      ? []
      : [
          {
            label: 'condensed every 240 events, segment layout (segment index)',
            id: segmentId,
            durability: 'fsync',
            targetMs: 200,
            targetMb: 100,
          },
        ]),
  ] as const;
  for (const testCase of cases) {
    const { label, id, durability, targetMs, targetMb } = testCase;
    // Run 0 is a warm-up (not counted): it also writes the first step's events, as every later run does.
    const { runs, notDropped } = medianRuns(childScript, [root, id, durability]);
    const pick = (key: string) => median(runs.map((run) => run[key]!));
    const elapsed = pick('elapsed');
    const rss = pick('rss') / 2 ** 20;
    console.log(
      `resume ${pick('events')} events, ${label}, + first step (durability ${durability}): ${elapsed.toFixed(1)} ms ` +
        `(resume alone ${pick('resumed').toFixed(1)} ms; CPU ${pick('cpu').toFixed(0)} ms, GC threads included), ` +
        `peak RSS ${rss.toFixed(0)} MB for the whole process (+${(pick('rssDelta') / 2 ** 20).toFixed(1)} MB during it); view ${pick('viewEvents')} events; ` +
        `median of ${RUNS} ${notDropped === undefined ? 'cold processes (page cache dropped)' : `processes, page cache NOT dropped (${notDropped})`}; ` +
        `${(elapsed / 8600).toFixed(3)}× the reference; time target ≤ ${targetMs} ms ${elapsed <= targetMs ? 'met' : 'NOT met'}, memory target ≤ ${targetMb} MB ${rss <= targetMb ? 'met' : 'NOT met'}`,
    );
    if ('floor' in testCase) printFloor({ id, elapsed, rss, cpu: pick('cpu'), targetMs, targetMb });
  }
} finally {
  // BENCH_KEEP=1 keeps the conversation (for profiling the child with --cpu-prof).
  if (process.env.BENCH_KEEP === '1') console.log(`kept ${root}`);
  else await rm(root, { recursive: true, force: true, maxRetries: 5 });
}
