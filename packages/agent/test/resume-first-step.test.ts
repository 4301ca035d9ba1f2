import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { View } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildViewCheckpoint, VIEW_CHECKPOINT_FILE } from '../src/conversation/view-checkpoint/index.js';
import {
  Agent,
  Conversation,
  createOfflineLLM,
  defineTool,
  type LLMRequest,
  LLMSummarizingCondenser,
  type OfflineTurn,
} from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

// The first step after a resume must send the model exactly what the same conversation, never closed,
// sends: whichever way the resume rebuilt its view (view checkpoint, packed read cache, full rebuild).

const tool = defineTool({
  name: 'run_command',
  description: 'Returns the command and a long output.',
  parameters: z.object({ command: z.string() }),
  execute: ({ command }) => ({ content: `$ ${command}\n${'line of output\n'.repeat(20)}` }),
});

/** Turn `turn` of the history: one tool call, every fifth turn two (one assistant message), then `finish`. */
function historyTurn(turn: number, steps: number): OfflineTurn {
  if (turn >= steps) return { content: 'All checks ran.', toolCalls: [] };
  const call = (n: number) => ({ name: 'run_command', arguments: { command: `check ${turn}.${n}` } });
  return {
    content: `Step ${turn}: running the next check.`,
    toolCalls: turn % 5 === 0 ? [call(0), call(1)] : [call(0)],
  };
}

function agentFor(options: { script: (request: LLMRequest, turn: number) => OfflineTurn; condensed: boolean }): Agent {
  return new Agent({
    llm: createOfflineLLM({ script: options.script }),
    tools: [tool],
    ...(options.condensed
      ? {
          condenser: new LLMSummarizingCondenser({
            llm: createOfflineLLM({ script: () => ({ content: 'summary of the earlier checks' }) }),
            maxSize: 40,
          }),
        }
      : {}),
  });
}

let root: string;
const opened: Conversation[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-resume-first-step-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((conversation) => conversation.close()));
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** The messages and tools of a request, as the model receives them. */
const wire = (request: LLMRequest) => JSON.stringify({ messages: request.messages, tools: request.tools });

/**
 * Runs a history of `steps` tool steps, copies the conversation's directory to `copies` (so each copy holds the
 * conversation as a resume finds it), then sends one more message in the same, never closed, conversation;
 * returns the first request of that send.
 */
async function liveFirstStep(options: { steps: number; condensed: boolean; copies: string[] }) {
  const requests: LLMRequest[] = [];
  const { steps, condensed } = options;
  const live = await Conversation.create({
    agent: agentFor({
      condensed,
      script: (request, turn) => {
        requests.push(request);
        return turn <= steps ? historyTurn(turn, steps) : { content: 'Done again.' };
      },
    }),
    workspace: await workspaceIn(root),
    persistenceDir: join(root, 'live'),
    durability: 'none',
  });
  opened.push(live);
  await live.sendMessage('Run the checks.');
  expect((await live.run()).status).toBe('finished');
  for (const copy of options.copies) await cp(join(root, 'live'), copy, { recursive: true });
  const before = requests.length;
  await live.sendMessage('One more check, please.');
  await live.run();
  return { id: live.id, directory: live.directory, request: requests[before]!, length: live.log.length };
}

/** Resumes the copy at `persistenceDir`, sends the same message and returns the first request of its first step. */
async function resumedFirstStep(id: string, persistenceDir: string, condensed: boolean): Promise<LLMRequest> {
  const requests: LLMRequest[] = [];
  const agent = agentFor({
    condensed,
    script: (request) => {
      requests.push(request);
      return { content: 'Done again.' };
    },
  });
  const resumed = await Conversation.resume(id, { agent, persistenceDir, durability: 'none' });
  opened.push(resumed);
  await resumed.sendMessage('One more check, please.');
  await resumed.run();
  return requests[0]!;
}

/** Resumes and builds the view once, so the packed read cache of the log is written; then closes. */
async function readOnce(id: string, persistenceDir: string): Promise<void> {
  const agent = agentFor({ condensed: false, script: () => ({ content: 'unused' }) });
  const conversation = await Conversation.resume(id, { agent, persistenceDir, durability: 'none' });
  await conversation.view();
  await conversation.close();
}

describe.each([
  { condensed: false, steps: 60 },
  { condensed: true, steps: 60 },
])('the first step after a resume (condensed: $condensed)', ({ condensed, steps }) => {
  it('sends the model what the conversation never resumed sends', { timeout: 120_000 }, async () => {
    const viaCheckpoint = join(root, 'checkpoint');
    const viaPacks = join(root, 'packs');
    const viaRebuild = join(root, 'rebuild');
    const live = await liveFirstStep({ steps, condensed, copies: [viaCheckpoint, viaPacks, viaRebuild] });
    expect(live.length).toBeGreaterThan(130);
    expect(wire(live.request)).toContain('One more check, please.');

    await rm(join(viaRebuild, live.directory, VIEW_CHECKPOINT_FILE));
    await readOnce(live.id, viaPacks);
    // Uncondensed, the read wrote the pack of the log's first (incomplete) chunk: the next resume decodes its
    // events from it. Condensed, only the view's tail is read (too little of the chunk to pack it).
    if (!condensed) {
      expect(await readdir(join(viaPacks, live.directory, 'events', '.slots', 'packs'))).not.toEqual([]);
    }

    for (const persistenceDir of [viaCheckpoint, viaPacks, viaRebuild]) {
      const resumed = await resumedFirstStep(live.id, persistenceDir, condensed);
      expect(wire(resumed)).toBe(wire(live.request));
    }
  });
});

describe('the view checkpoint after a resumed run', () => {
  it('names what a checkpoint built from scratch names', { timeout: 120_000 }, async () => {
    const copy = join(root, 'copy');
    const live = await liveFirstStep({ steps: 30, condensed: false, copies: [copy] });
    const agent = agentFor({ condensed: false, script: () => ({ content: 'Done again.' }) });
    const resumed = await Conversation.resume(live.id, { agent, persistenceDir: copy, durability: 'none' });
    opened.push(resumed);
    await resumed.sendMessage('One more check, please.');
    await resumed.run();
    // The restored view's checkpoint names only the events appended since it was restored.
    const view = await resumed.view();
    const continued = buildViewCheckpoint(view, resumed.state, resumed.log);
    const fresh = View.restore([...view.foldedEvents], view.unhandledCondensationRequest);
    expect(continued?.entries.length).toBeGreaterThan(30);
    expect(continued).toEqual(buildViewCheckpoint(fresh, resumed.state, resumed.log));
  });
});
