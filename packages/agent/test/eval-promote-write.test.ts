import { chmod, mkdtemp, open, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSuite, promoteConversation } from '../src/index.js';
import { GOOD_SCRIPT, recordConversation } from './support/eval-recordings.js';

let root: string;
let recorded: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-promote-write-'));
  recorded = await recordConversation(root, GOOD_SCRIPT);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const existing = 'cases:\n  - id: first\n    task: t\n    scorers: [no-errors]\n';

describe('promoteConversation into a YAML file holding only comments', () => {
  it('makes it a suite named after the file with the one case, the comments kept on top', async () => {
    const directory = await mkdtemp(join(root, 'comments-'));
    const path = join(directory, 'regressions.yaml');
    await writeFile(path, '# Regressions found in production.\n# One case per incident.\n');
    const added = await promoteConversation({ location: recorded, suitePath: path, id: 'incident-1' });
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('# Regressions found in production.\n# One case per incident.\n')).toBe(true);
    const suite = await loadSuite(path);
    expect(suite.name).toBe('regressions');
    expect(suite.cases).toEqual([added]);
    // The next promotion adds to it as to any suite.
    await promoteConversation({ location: recorded, suitePath: path, id: 'incident-2' });
    expect((await loadSuite(path)).cases.map((entry) => entry.id)).toEqual(['incident-1', 'incident-2']);
  });
});

describe('promoteConversation replaces the suite file whole', () => {
  it('never writes into the old file: a reader that opened it still reads the whole old suite', async () => {
    const directory = await mkdtemp(join(root, 'whole-'));
    const path = join(directory, 'suite.yaml');
    await writeFile(path, existing);
    const reader = await open(path, 'r');
    try {
      await promoteConversation({ location: recorded, suitePath: path, id: 'second' });
      expect(await reader.readFile('utf8')).toBe(existing);
    } finally {
      await reader.close();
    }
    expect((await loadSuite(path)).cases.map((entry) => entry.id)).toEqual(['first', 'second']);
    // Nothing is left beside it.
    expect(await readdir(directory)).toEqual(['suite.yaml']);
  });

  it("keeps the file's mode, and a symbolic link to the suite stays a link to the replaced suite", async () => {
    const directory = await mkdtemp(join(root, 'link-'));
    const target = join(directory, 'real.yaml');
    await writeFile(target, existing);
    await chmod(target, 0o600);
    const link = join(directory, 'suite.yaml');
    await symlink('real.yaml', link);
    await promoteConversation({ location: recorded, suitePath: link, id: 'second' });
    expect(await readlink(link)).toBe('real.yaml');
    expect((await loadSuite(target)).cases.map((entry) => entry.id)).toEqual(['first', 'second']);
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect((await readdir(directory)).sort()).toEqual(['real.yaml', 'suite.yaml']);
  });
});
