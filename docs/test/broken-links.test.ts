// The site build fails on a broken link: a guide that links to a file that does not exist, to an anchor that
// does not exist, or to an API name that does not exist stops `pnpm docs` (and so `pnpm test`).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, docsDir } from './build-site.js';

let work: string;
beforeAll(async () => {
  // Inside docs/: TypeDoc globs every document from the folder all of them share.
  work = await mkdtemp(join(docsDir, 'tmp-broken-links-'));
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
  // TypeDoc stops after conversion when it warned there, so a missing anchor (checked after rendering) needs a
  // build of its own; a missing file and an unresolved {@link} are both reported by the conversion.
  it('names a link to a file that does not exist and an API name that does not exist', async () => {
    const broken = await guide('missing-file', 'See [the guide](./no-such-guide.md) and {@link createNoSuchThing}.');
    const build = await buildSite(join(work, 'site-file'), [broken]);
    expect(build.code).not.toBe(0);
    expect(build.output).toContain('./no-such-guide.md');
    expect(build.output).toContain('createNoSuchThing');
  }, 600_000);

  it('names a link to an anchor that does not exist', async () => {
    const tools = relative(work, join(docsDir, 'guides', 'tools.md'));
    const broken = await guide(
      'missing-anchor',
      `See [a section](${tools}#no-such-section); [built-in tools](${tools}#built-in-tools) is fine.`,
    );
    const build = await buildSite(join(work, 'site-anchor'), [broken]);
    expect(build.code).not.toBe(0);
    expect(build.output).toContain('#no-such-section, but the anchor does not exist');
    expect(build.output).not.toContain('#built-in-tools, but the anchor does not exist');
  }, 600_000);
});
