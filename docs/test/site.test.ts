// The site builds with every warning an error (broken links, unresolved {@link}s, missing files), its guides
// carry the code of the tested examples, and the API reference covers every published entry point.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type SiteBuild } from './build-site.js';

let work: string;
let build: SiteBuild;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'x-docs-site-'));
  build = await buildSite(join(work, 'site'));
}, 600_000);
afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true, maxRetries: 5 });
});

const page = (path: string) => readFile(join(work, 'site', path), 'utf8');

describe('the docs site', () => {
  it('builds without a single warning', () => {
    expect(build.code, build.output).toBe(0);
    expect(build.output).not.toMatch(/\[warning\]|\[error\]|unexpected error/);
    expect(build.output).toContain('html generated');
  });

  it('has every guide, with the code of the examples the tests run', async () => {
    for (const guide of [
      'tools',
      'providers',
      'mcp',
      'hooks',
      'skills',
      'sub-agents',
      'persistence',
      'server',
      'replicas',
      'security',
      'observability',
      'long-conversations',
      'browser',
      'viewer',
    ]) {
      expect(existsSync(join(work, 'site', 'documents', `${guide}.html`)), guide).toBe(true);
    }
    expect(await page('documents/tools.html')).toContain('word_count');
    expect(await page('documents/hooks.html')).toContain('rm -rf is not allowed here');
    expect(await page('documents/providers.html')).toContain('budgetTokens');
    expect(await page('documents/browser.html')).toContain('useConversation');
    // Words only the included examples' code has, not the guides' text.
    expect(await page('documents/security.html')).toContain('sandboxPolicy');
    expect(await page('documents/providers.html')).toContain('claude-sonnet-4-6');
    expect(await page('documents/observability.html')).toContain('InMemorySpanExporter');
    expect(await page('documents/long-conversations.html')).toContain('keepFirst');
    expect(await page('documents/persistence.html')).toContain('AWS_ENDPOINT_URL_S3');
    expect(await page('documents/persistence.html')).toContain('saveArtifact');
    expect(await page('documents/security.html')).toContain('the deploy service token');
    // The viewer guide's screenshots are copied into the site (TypeDoc's media folder) and shown.
    const viewer = await page('documents/viewer.html');
    for (const image of ['viewer-tree.png', 'viewer-usage-chart.png']) {
      const src = new RegExp(`<img[^>]+src="([^"]*${image.replace('.', '\\.')})"`).exec(viewer)?.[1];
      expect(src, image).toBeDefined();
      expect(existsSync(join(work, 'site', 'documents', src as string)), src).toBe(true);
    }
    // The getting-started page is the site's front page.
    expect(await page('index.html')).toContain('Getting started');
  });

  it('documents the API of every published entry point from its TSDoc', async () => {
    for (const module of [
      '_x_events.index',
      '_x_events.testing',
      '_x_store.index',
      '_x_store.testing',
      '_x_store-postgres.index',
      '_x_store-postgres.testing',
      '_x_agent.index',
      '_x_agent.testing',
      '_x_server.index',
      '_x_server.client',
      '_x_client',
      '_x_react',
    ]) {
      expect(existsSync(join(work, 'site', 'modules', `${module}.html`)), module).toBe(true);
    }
    // A TSDoc comment, as written in packages/agent/src/agent/create-agent.ts, on createAgent's page.
    expect(await page('functions/_x_agent.index.createAgent.html')).toContain('An agent with sensible defaults');
  });
});
