// The site build fails on a broken link: a guide that links to a file that does not exist, to an anchor that
// does not exist, or to an API name that does not exist stops `pnpm docs` (and so `pnpm test`).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, docsDir } from './build-site.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'x-docs-broken-'));
});
afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true, maxRetries: 5 });
});

async function guide(name: string, body: string): Promise<string> {
  const path = join(work, `${name}.md`);
  await writeFile(path, `---\ntitle: ${name}\n---\n\n# ${name}\n\n${body}\n`);
  return path;
}

describe('a broken link fails the docs build', () => {
  it('names a link to a file that does not exist', async () => {
    const broken = await guide('Missing file', 'See [the guide](./no-such-guide.md).');
    const build = await buildSite(join(work, 'site-file'), [broken]);
    expect(build.code).not.toBe(0);
    expect(build.output).toContain('./no-such-guide.md');
  }, 600_000);

  it('names a link to a missing anchor and an API name that does not exist', async () => {
    const tools = relative(work, join(docsDir, 'guides', 'tools.md'));
    const broken = await guide(
      'Missing anchor',
      `See [a section](${tools}#no-such-section) and {@link createNoSuchThing}; [built-in tools](${tools}#built-in-tools) is fine.`,
    );
    const build = await buildSite(join(work, 'site-anchor'), [broken]);
    expect(build.code).not.toBe(0);
    expect(build.output).toContain('#no-such-section');
    expect(build.output).toContain('createNoSuchThing');
    expect(build.output).not.toContain('#built-in-tools, but the anchor does not exist');
  }, 600_000);
});
