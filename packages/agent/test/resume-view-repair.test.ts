import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VIEW_CHECKPOINT_FILE } from '../src/conversation/view-checkpoint/index.js';
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

// A response whose first call is invalid is logged A1 (no action), E1, A2, O2: the index between E1 and A2
// is a manipulation index, so the condenser may forget A1 and E1 and keep A2 and O2. The reference's
// rebuild (View.from_events) then drops A2 (its batch is broken) and O2; the live view must do the same, or
// a conversation resumed without a view checkpoint sends the model something else than the live one.
// Same harness as resume-first-step.test.ts.

const tool = defineTool({
  name: 'run_command',
  description: 'Returns the command and its output.',
  parameters: z.object({ command: z.string() }),
  execute: ({ command }) => ({ content: `$ ${command}\n${'line of output\n'.repeat(5)}` }),
});

const STEPS = 40;

/** Every turn calls a tool that does not exist, then a real one, in one response. */
function historyTurn(turn: number): OfflineTurn {
  if (turn >= STEPS) return { content: 'All checks ran.', toolCalls: [] };
  return {
    content: `Step ${turn}.`,
    toolCalls: [
      { name: 'no_such_tool', arguments: { command: `bad ${turn}` } },
      { name: 'run_command', arguments: { command: `check ${turn}` } },
    ],
  };
}

function agentFor(script: (request: LLMRequest, turn: number) => OfflineTurn): Agent {
  return new Agent({
    llm: createOfflineLLM({ script }),
    tools: [tool],
    condenser: new LLMSummarizingCondenser({
      llm: createOfflineLLM({ script: () => ({ content: 'summary of the earlier checks' }) }),
      maxSize: 21,
      keepFirst: 2,
    }),
  });
}

let root: string;
const opened: Conversation[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-resume-view-repair-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((conversation) => conversation.close()));
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const wire = (request: LLMRequest) => JSON.stringify({ messages: request.messages, tools: request.tools });

/** Whether some Condensation of the log forgets part of a response's actions and keeps the rest. */
function cutsABatch(events: AnyEvent[]): boolean {
  const batches = new Map<string, string[]>();
  for (const event of events) {
    if (event.kind === 'ActionEvent')
      batches.set(event.llm_response_id, [...(batches.get(event.llm_response_id) ?? []), event.id]);
  }
  return events.some((event) => {
    if (event.kind !== 'Condensation') return false;
    const forgotten = new Set(event.forgotten_event_ids);
    return [...batches.values()].some((ids) => {
      const cut = ids.filter((id) => forgotten.has(id)).length;
      return cut > 0 && cut < ids.length;
    });
  });
}

describe('the first step after a resume, when a condensation cut a batch', () => {
  it('sends what the never-resumed conversation sends, with or without a view checkpoint', {
    timeout: 180_000,
  }, async () => {
    const requests: LLMRequest[] = [];
    const live = await Conversation.create({
      agent: agentFor((request, turn) => {
        requests.push(request);
        return turn <= STEPS ? historyTurn(turn) : { content: 'Done again.' };
      }),
      workspace: await workspaceIn(root),
      persistenceDir: join(root, 'live'),
      durability: 'none',
    });
    opened.push(live);
    await live.sendMessage('Run the checks.');
    expect((await live.run()).status).toBe('finished');
    const events = await live.log.range(0, live.log.length);
    expect(cutsABatch(events)).toBe(true);

    const viaCheckpoint = join(root, 'checkpoint');
    const viaRebuild = join(root, 'rebuild');
    for (const copy of [viaCheckpoint, viaRebuild]) await cp(join(root, 'live'), copy, { recursive: true });
    await rm(join(viaRebuild, live.directory, VIEW_CHECKPOINT_FILE), { force: true });

    const before = requests.length;
    await live.sendMessage('One more check, please.');
    await live.run();
    const expected = wire(requests[before]!);
    expect(expected).toContain('One more check, please.');

    for (const persistenceDir of [viaCheckpoint, viaRebuild]) {
      const resumedRequests: LLMRequest[] = [];
      const agent = agentFor((request) => {
        resumedRequests.push(request);
        return { content: 'Done again.' };
      });
      const resumed = await Conversation.resume(live.id, { agent, persistenceDir, durability: 'none' });
      opened.push(resumed);
      await resumed.sendMessage('One more check, please.');
      await resumed.run();
      expect(wire(resumedRequests[0]!)).toBe(expected);
    }
  });
});
