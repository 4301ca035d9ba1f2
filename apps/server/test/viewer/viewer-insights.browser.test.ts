import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSuite, locateConversation } from '@x/agent';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, type TestServer, tempDir, waitForIdle } from '../helpers.js';
import { SCREENSHOT_DIR } from './browser.js';
import { eventually, useViewerFixture } from './viewer-fixture.js';

const viewer = useViewerFixture('viewer-insights-key');
const AUTH = viewer.auth;
/** With X_DOC_SCREENSHOTS=1 the pictures are also written where the viewer guide shows them. */
const DOC_IMAGES = fileURLToPath(new URL('../../../../docs/guides/images/', import.meta.url));
const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

type Json = Record<string, unknown>;

/** A priced model name (gpt-4o: $2.50 per million prompt tokens, $10 per million completion tokens). */
function pricedRequest(s: TestServer, extra: Json = {}): Json {
  const request = createRequest(s.llm, extra);
  (request.agent as { llm: Json }).llm.model = 'gpt-4o';
  return request;
}

async function create(s: TestServer, request: Json): Promise<string> {
  const { status, json } = await s.call('POST', '/api/conversations', request, AUTH);
  expect(status).toBe(201);
  return (json as { id: string }).id;
}

async function allEvents(s: TestServer, id: string): Promise<Json[]> {
  const { json } = await s.call('GET', `/api/conversations/${id}/events/search?limit=100`, undefined, AUTH);
  return (json as { items: Json[] }).items;
}

async function picture(element: Locator, name: string): Promise<void> {
  await element.screenshot({ path: `${SCREENSHOT_DIR}${name}.png` });
  if (process.env.X_DOC_SCREENSHOTS === '1') {
    await mkdir(DOC_IMAGES, { recursive: true });
    await copyFile(`${SCREENSHOT_DIR}${name}.png`, `${DOC_IMAGES}${name}.png`);
  }
}

const edgesOf = (page: Page) =>
  page.$$eval('.tree-graph path[data-edge]', (paths) =>
    paths.map((path) => `${path.getAttribute('data-kind')} ${path.getAttribute('data-edge')}`).sort(),
  );
const hash = (page: Page) => decodeURIComponent(new URL(page.url()).hash);

describe('viewer pictures in chromium', { timeout: 240_000 }, () => {
  it('draws branches, a fork and a sub-agent as a tree whose nodes open what they stand for', async () => {
    const s = await viewer.start();
    s.llm.push(
      { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['scout'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { scout: 'Look around' } } }] },
      finishReply('nothing to see'),
      finishReply('The scout found nothing.'),
    );
    const request = pricedRequest(s, { initial_message: { content: 'Send a scout' } });
    (request.agent as { tools: unknown[] }).tools.push({ name: 'DelegateTool' });
    const id = await create(s, request);
    await waitForIdle(s, id);
    // A second branch: back to the first message, then a different follow-up.
    const first = await allEvents(s, id);
    const task = first.find((event) => event.kind === 'MessageEvent' && event.source === 'user') as Json;
    expect((await s.call('POST', `/api/conversations/${id}/navigate`, { event_id: task.id }, AUTH)).status).toBe(200);
    s.llm.push(finishReply('Second answer'));
    await s.call(
      'POST',
      `/api/conversations/${id}/events`,
      { content: [{ type: 'text', text: 'Second thoughts' }], run: true },
      AUTH,
    );
    await waitForIdle(s, id);
    const fork = await s.call('POST', `/api/conversations/${id}/fork`, { from_event_id: task.id }, AUTH);
    const forkId = (fork.json as { id: string }).id;
    const info = (await s.call('GET', `/api/conversations/${id}`, undefined, AUTH)).json as Json;
    const [subId] = info.sub_conversation_ids as string[];

    // What the picture must show, from the log: the root segment ends at the task, two branches leave it.
    const events = await allEvents(s, id);
    const rootId = events[0]?.id as string;
    const children = events
      .filter((event) => event.parent_id === task.id && event.kind !== 'ConversationStateUpdateEvent')
      .map((event) => event.id as string);
    expect(children).toHaveLength(2);
    const forkEvents = await allEvents(s, forkId);
    const forkRoot = forkEvents[0]?.id as string;

    const { page, problems } = await viewer.open(s, `#/c/${id}`);
    const graph = page.locator('.tree-graph svg');
    await eventually(() => page.locator('.tree-graph [data-node-key]').count()).toBe(7);
    expect(await edgesOf(page)).toEqual(
      [
        `contains c:${id}>s:${id}:${rootId}`,
        `branch s:${id}:${rootId}>s:${id}:${children[0]}`,
        `branch s:${id}:${rootId}>s:${id}:${children[1]}`,
        `delegate c:${id}>sub:${id}:${subId}`,
        `fork s:${id}:${rootId}>c:${forkId}`,
        `contains c:${forkId}>s:${forkId}:${forkRoot}`,
      ].sort(),
    );
    // HEAD's branch of the page's conversation is the marked one: the root and the "Second thoughts" branch.
    const current = await page.$$eval('.tree-graph .node.current', (nodes) =>
      nodes.map((node) => node.getAttribute('data-node-key')),
    );
    expect(current.sort()).toEqual([`c:${id}`, `s:${id}:${rootId}`, `s:${id}:${children[1]}`].sort());
    // Wide enough for both pictures side by side without scrolling, for the guide's screenshot.
    await page.setViewportSize({ width: 1700, height: 900 });
    await picture(page.locator('.tree-graph'), 'viewer-tree');

    // A branch node opens the conversation at the branch's last event.
    const oldBranch = page.locator(`[data-node-key="s:${id}:${children[0]}"]`);
    await oldBranch.click();
    const finalAnswer = events.findLast(
      (event) => event.kind === 'ActionEvent' && JSON.stringify(event).includes('The scout found nothing.'),
    );
    const oldEnd = (
      (await s.call('GET', `/api/conversations/${id}/branches`, undefined, AUTH)).json as {
        segments: { id: string; last_event_id: string }[];
      }
    ).segments.find((segment) => segment.id === children[0])?.last_event_id as string;
    expect(finalAnswer).toBeDefined();
    await eventually(() => hash(page)).toBe(`#/c/${id}/e/${oldEnd}`);
    await eventually(() => page.locator('.timeline article.focused').getAttribute('data-event-id')).toBe(oldEnd);

    // The fork node opens the fork; its picture is the same family, with the fork marked.
    await page.locator(`[data-node-key="c:${forkId}"]`).click();
    await eventually(() => hash(page)).toBe(`#/c/${forkId}`);
    await eventually(() => page.locator('.tree-graph .node.current').first().getAttribute('data-node-key')).toBe(
      `c:${forkId}`,
    );
    await eventually(() => graph.locator('[data-node-key]').count()).toBe(7);

    // The sub-agent node opens its read-only log.
    await page.locator(`[data-node-key="sub:${id}:${subId}"]`).click();
    await eventually(() => hash(page)).toBe(`#/c/${id}/sub/${subId}`);
    await eventually(() => page.locator('.timeline article', { hasText: 'nothing to see' }).count()).toBeGreaterThan(0);
    expect(await page.locator('.timeline button.fork').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('charts one point per LLM response with its tokens and cost, and promotes the conversation to an eval case', async () => {
    const s = await viewer.start();
    const usages = [
      { prompt_tokens: 1000, completion_tokens: 200 },
      { prompt_tokens: 3000, completion_tokens: 50 },
      { prompt_tokens: 1500, completion_tokens: 300 },
    ];
    s.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo one' } }], usage: usages[0] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo two' } }], usage: usages[1] },
      { ...finishReply('Counted.'), usage: usages[2] },
    );
    const id = await create(s, pricedRequest(s, { initial_message: { content: 'Count for me' } }));
    await waitForIdle(s, id);

    const { page, problems } = await viewer.open(s, `#/c/${id}`);
    const steps = page.locator('.step-chart g.step');
    await eventually(() => steps.count()).toBe(3);
    const drawn = await steps.evaluateAll((groups) =>
      groups.map((group) => ({
        prompt: Number(group.getAttribute('data-prompt-tokens')),
        completion: Number(group.getAttribute('data-completion-tokens')),
        cost: Number(group.getAttribute('data-cost')),
        title: group.querySelector('title')?.textContent ?? '',
      })),
    );
    usages.forEach((usage, index) => {
      const step = drawn[index] as (typeof drawn)[number];
      const cost = (usage.prompt_tokens * 2.5 + usage.completion_tokens * 10) / 1_000_000;
      expect(step.prompt).toBe(usage.prompt_tokens);
      expect(step.completion).toBe(usage.completion_tokens);
      expect(step.cost).toBeCloseTo(cost, 10);
      expect(step.title).toContain(`Step ${index + 1}`);
      expect(step.title).toContain(`${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion tokens`);
      expect(step.title).toContain(`$${cost.toFixed(4)}`);
    });
    expect(await page.locator('.step-chart circle.cost-point').count()).toBe(3);
    await picture(page.locator('.step-chart'), 'viewer-usage-chart');
    await picture(page.locator('.insights'), 'viewer-pictures');

    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Promote to eval case' }).click();
    const download = await downloading;
    const short = id.replace(/-/g, '').slice(0, 8);
    expect(download.suggestedFilename()).toBe(`conversation-${short}.eval.json`);
    const dir = await tempDir();
    dirs.push(dir);
    const suitePath = join(dir, download.suggestedFilename());
    await download.saveAs(suitePath);
    const suite = await loadSuite(suitePath);
    expect(suite.cases).toHaveLength(1);
    const promoted = suite.cases[0];
    expect(promoted).toMatchObject({
      id: `conversation-${short}`,
      description: 'Count for me',
      scorers: [
        { type: 'no-errors' },
        { type: 'trajectory', match: 'exact', tools: ['terminal', 'terminal', 'finish'] },
        { type: 'final-answer', pattern: '^Counted\\.$' },
      ],
    });
    expect(locateConversation(promoted?.conversation as string, { caseId: 'c', directory: suite.directory })).toBe(
      join(s.dataDir, 'conversations', id.replace(/-/g, '')),
    );
    expect(JSON.parse(await readFile(suitePath, 'utf8'))).toMatchObject({ cases: [{ id: `conversation-${short}` }] });
    await eventually(() => page.getByRole('status').textContent()).toContain('Saved');
    expect(problems).toEqual([]);
  });
});
