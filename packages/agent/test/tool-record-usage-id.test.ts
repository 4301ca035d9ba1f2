// A tool records spending of its own in the conversation's stats (`ToolConversation.recordUsage`: a sub-agent's,
// under `delegate:<id>`). A record sets an id's entry whole, so it must name an id of the tool's own: never one no
// usage id may be (`__proto__`, which the stats cannot key; a non-string from a tool written in JavaScript), and
// never `default` or an id one of the conversation's own models spends under (the agent's LLM, its condenser's,
// another agent's control can pass to, a title model passed to `generateTitle`), whose spending it would replace
// (and every budget would read the tool's figure for it).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type Condenser,
  Conversation,
  createOfflineLLM,
  defineTool,
  type LLM,
  LLMSummarizingCondenser,
  PipelineCondenser,
} from '../src/index.js';
import { InvalidUsageIdError } from '../src/llm/errors/invalid-usage-id-error.js';
import { emptyTokenUsage, type MetricsSnapshot } from '../src/llm/metrics.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** What a sub-agent spent: a cost no offline model's response has. */
const spent: MetricsSnapshot = {
  model_name: 'sub-agent-model',
  accumulated_cost: 7,
  accumulated_token_usage: emptyTokenUsage('sub-agent-model'),
};

/** A model that only finishes, spending under `usageId` (a condenser's or another agent's; it is never called here). */
function idleLLM(usageId: string) {
  return createOfflineLLM({
    usageId,
    script: () => ({ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }),
  });
}

/**
 * Runs a conversation whose model (usage id `usageId`, when given) calls a tool that records `spent` under each of
 * `ids` in turn, then finishes; what each record did (`'recorded'`, or the error it threw), and the final stats. The
 * agent has `condenser` when given, and control can pass to `agents`.
 */
async function recordUnder(
  ids: readonly unknown[],
  options: {
    usageId?: string;
    condenser?: Condenser;
    agents?: Record<string, Agent>;
    /** Called with the conversation once its message is sent, before its run. */
    beforeRun?: (conversation: Conversation) => Promise<void>;
  } = {},
) {
  const { usageId } = options;
  const dir = await mkdtemp(join(tmpdir(), 'x-record-usage-'));
  dirs.push(dir);
  const outcomes: unknown[] = [];
  const spend = defineTool({
    name: 'spend',
    description: 'Records a sub-agent spending.',
    parameters: z.object({ at: z.number() }),
    execute: async ({ at }, context) => {
      try {
        await context.conversation!.recordUsage!(ids[at] as string, spent);
        outcomes.push('recorded');
      } catch (error) {
        outcomes.push(error);
      }
      return { content: 'done' };
    },
  });
  const llm = createOfflineLLM({
    ...(usageId === undefined ? {} : { usageId }),
    script: (_request, turn) =>
      turn >= ids.length
        ? { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }
        : { toolCalls: [{ name: 'spend', arguments: { at: turn } }] },
  });
  const conversation = await Conversation.create({
    agent: new Agent({
      llm,
      tools: [spend],
      ...(options.condenser === undefined ? {} : { condenser: options.condenser }),
    }),
    ...(options.agents === undefined ? {} : { agents: options.agents }),
    workspace: dir,
    persistenceDir: dir,
    store: createMemoryFileStore(),
  });
  await conversation.sendMessage('go');
  await options.beforeRun?.(conversation);
  expect((await conversation.run()).status).toBe('finished');
  const stats = conversation.stats.usage_to_metrics;
  await conversation.close();
  return { outcomes, stats };
}

function expectRefused(outcome: unknown, usageId: string): void {
  expect(outcome).toBeInstanceOf(InvalidUsageIdError);
  expect(outcome).toMatchObject({ code: 'invalid_usage_id', usageId });
}

describe('recordUsage from a tool', () => {
  it("records under an id of the tool's own", async () => {
    const { outcomes, stats } = await recordUnder(['delegate:child']);
    expect(outcomes).toEqual(['recorded']);
    expect(Object.hasOwn(stats, 'delegate:child')).toBe(true);
    expect(stats['delegate:child']).toMatchObject({ model_name: 'sub-agent-model', accumulated_cost: 7 });
  });

  it('refuses an id no usage id may be, and records nothing under it', async () => {
    const { outcomes, stats } = await recordUnder(['__proto__', 42]);
    expectRefused(outcomes[0], '__proto__');
    expectRefused(outcomes[1], '42');
    expect((outcomes[1] as Error).message).toContain('expected a string, got number');
    expect(Object.keys(stats)).toEqual(['default']);
  });

  it("refuses default, leaving the model's own spending in place", async () => {
    const { outcomes, stats } = await recordUnder(['default']);
    expectRefused(outcomes[0], 'default');
    expect((outcomes[0] as Error).message).toContain("one of the conversation's own models spends under it");
    expect(stats.default!.model_name).not.toBe('sub-agent-model');
    expect(stats.default!.accumulated_cost).toBe(0);
  });

  it("refuses the usage id the conversation's model spends under, and default still", async () => {
    const { outcomes, stats } = await recordUnder(['main', 'default', 'delegate:child'], { usageId: 'main' });
    expectRefused(outcomes[0], 'main');
    expectRefused(outcomes[1], 'default');
    expect(outcomes[2]).toBe('recorded');
    expect(stats.main!.accumulated_cost).toBe(0);
    expect(Object.keys(stats).sort()).toEqual(['delegate:child', 'main']);
  });

  it("refuses the usage ids of the agent's condenser, in a pipeline too, and of the other agents", async () => {
    const summarizing = (usageId: string) => new LLMSummarizingCondenser({ llm: idleLLM(usageId), maxSize: 80 });
    const reviewer = new Agent({
      name: 'reviewer',
      llm: idleLLM('reviewer'),
      condenser: summarizing('reviewer-summary'),
    });
    const { outcomes, stats } = await recordUnder(
      ['condenser', 'summary', 'reviewer', 'reviewer-summary', 'delegate:child'],
      { condenser: new PipelineCondenser([summarizing('condenser'), summarizing('summary')]), agents: { reviewer } },
    );
    expectRefused(outcomes[0], 'condenser');
    expectRefused(outcomes[1], 'summary');
    expectRefused(outcomes[2], 'reviewer');
    expectRefused(outcomes[3], 'reviewer-summary');
    expect(outcomes[4]).toBe('recorded');
    expect(Object.keys(stats).sort()).toEqual(['default', 'delegate:child']);
  });

  it('refuses the usage id of a title model passed to generateTitle, whose spending the conversation recorded', async () => {
    const titles = createOfflineLLM({ usageId: 'titles', script: () => ({ content: 'Go' }) });
    // Not offline: generateTitle asks (and records the spending of) a model that is not the offline one.
    const titleModel: LLM = {
      model: 'title-model',
      usageId: titles.usageId,
      offline: false,
      complete: (request) => titles.complete(request),
    };
    const { outcomes, stats } = await recordUnder(['titles', 'delegate:child'], {
      beforeRun: async (conversation) => {
        expect(await conversation.generateTitle({ llm: titleModel })).toBe('Go');
      },
    });
    expectRefused(outcomes[0], 'titles');
    expect(outcomes[1]).toBe('recorded');
    expect(stats.titles).toMatchObject({ model_name: 'title-model', accumulated_cost: 0 });
  });

  it('records under the id a condenser would spend under when the agent has none of that kind', async () => {
    const { outcomes } = await recordUnder(['condenser']);
    expect(outcomes).toEqual(['recorded']);
  });
});

describe('recordUsage from a tool once the conversation switched its model', () => {
  it("refuses the switched model's usage id as well as the agent's own", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'x-record-usage-'));
    dirs.push(dir);
    const ids = ['switched', 'main', 'delegate:child'];
    const outcomes: unknown[] = [];
    const spend = defineTool({
      name: 'spend',
      description: 'Records a sub-agent spending.',
      parameters: z.object({ at: z.number() }),
      execute: async ({ at }, context) => {
        await context.conversation!.recordUsage!(ids[at]!, spent).then(
          () => outcomes.push('recorded'),
          (error: unknown) => outcomes.push(error),
        );
        return { content: 'done' };
      },
    });
    const switched = createOfflineLLM({
      usageId: 'switched',
      script: (_request, turn) =>
        turn >= ids.length
          ? { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }
          : { toolCalls: [{ name: 'spend', arguments: { at: turn } }] },
    });
    const conversation = await Conversation.create({
      agent: new Agent({ llm: idleLLM('main'), tools: [spend] }),
      workspace: dir,
      persistenceDir: dir,
      store: createMemoryFileStore(),
    });
    await conversation.switchLLM(switched);
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('finished');
    const stats = conversation.stats.usage_to_metrics;
    await conversation.close();

    expectRefused(outcomes[0], 'switched');
    expectRefused(outcomes[1], 'main');
    expect(outcomes[2]).toBe('recorded');
    expect(stats.switched!.model_name).not.toBe('sub-agent-model');
    expect(stats['delegate:child']).toMatchObject({ accumulated_cost: 7 });
  });
});
