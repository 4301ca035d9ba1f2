import { mkdir, mkdtemp, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveWorkspaceDirectory, WorkspacePathError } from '../paths/index.js';
import { createGlobTool, globTool, splitGlobPattern } from './glob-tool.js';
import { createGlobMatcher } from './internal/glob-pattern.js';

let root: string;
let workspace: string;
let outside: string;

/** Writes a file with a given modification time (seconds since the epoch): the tools sort newest first. */
async function put(path: string, text: string, mtime: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  await utimes(path, mtime, mtime);
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-glob-')));
  workspace = join(root, 'ws');
  outside = join(root, 'outside');
  await put(join(outside, 'secret.ts'), 'secret', 1000);
  await put(join(workspace, 'a.ts'), 'a', 1000);
  await put(join(workspace, 'src', 'b.ts'), 'b', 3000);
  await put(join(workspace, 'src', 'deep', 'c.ts'), 'c', 2000);
  await put(join(workspace, 'src', 'd.js'), 'd', 1500);
  await put(join(workspace, '.hidden', 'e.ts'), 'e', 5000);
  await put(join(workspace, 'config.yaml'), 'y', 1000);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const glob = (args: Record<string, unknown>) => globTool.execute({ ...args, kind: 'GlobAction' }, { workspace });
const text = (observation: Observation) =>
  observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('glob', () => {
  it('is read-only: the model is asked for no security risk', () => {
    expect(globTool.readOnly).toBe(true);
    // The reference's GlobTool annotations, which MCP clients and the chat tool list read.
    expect(globTool.annotations).toEqual({
      title: 'glob',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('finds files at any depth for a name pattern, newest first, in the reference GlobObservation', async () => {
    const observation = await glob({ pattern: '*.ts' });
    const files = [join(workspace, 'src/b.ts'), join(workspace, 'src/deep/c.ts'), join(workspace, 'a.ts')];
    expect(observation).toEqual({
      content: [
        {
          cache_prompt: false,
          type: 'text',
          text: `Found 3 file(s) matching pattern '*.ts' in '${workspace}':\n${files.join('\n')}`,
        },
      ],
      is_error: false,
      files,
      pattern: '*.ts',
      search_path: workspace,
      truncated: false,
      kind: 'GlobObservation',
    });
  });

  it('anchors patterns with a slash, and reads ** and {a,b}', async () => {
    expect((await glob({ pattern: 'src/*.ts' })).files).toEqual([join(workspace, 'src/b.ts')]);
    expect((await glob({ pattern: 'src/**/*.ts' })).files).toEqual([
      join(workspace, 'src/b.ts'),
      join(workspace, 'src/deep/c.ts'),
    ]);
    expect((await glob({ pattern: '**/*.{js,yaml}' })).files).toEqual([
      join(workspace, 'src/d.js'),
      join(workspace, 'config.yaml'),
    ]);
  });

  it('searches below `path` and splits an absolute pattern into directory and pattern', async () => {
    expect((await glob({ pattern: '*.ts', path: 'src/deep' })).files).toEqual([join(workspace, 'src/deep/c.ts')]);
    const absolute = await glob({ pattern: `${workspace}/src/**/*.js` });
    expect(absolute).toMatchObject({ files: [join(workspace, 'src/d.js')], search_path: join(workspace, 'src') });
    expect(splitGlobPattern('/a/b/*.py')).toEqual({ directory: '/a/b', pattern: '*.py' });
    expect(splitGlobPattern('**/*.py')).toEqual({ directory: undefined, pattern: '**/*.py' });
  });

  it('says when nothing matches, and truncates to the newest files', async () => {
    expect(text(await glob({ pattern: '*.rs' }))).toBe(
      `No files found matching pattern '*.rs' in directory '${workspace}'`,
    );
    const limited = await createGlobTool({ maxResults: 2 }).execute(
      { pattern: '**/*', kind: 'GlobAction' },
      { workspace },
    );
    expect(limited).toMatchObject({
      truncated: true,
      files: [join(workspace, 'src/b.ts'), join(workspace, 'src/deep/c.ts')],
    });
    expect(text(limited)).toContain('[Results truncated to first 2 files. Consider using a more specific pattern.]');
    // As many files as the limit: all of them, nothing left out.
    const exact = await createGlobTool({ maxResults: 3 }).execute(
      { pattern: '*.ts', kind: 'GlobAction' },
      { workspace },
    );
    expect(exact).toMatchObject({
      truncated: false,
      files: [expect.any(String), expect.any(String), expect.any(String)],
    });
    expect(text(exact)).not.toContain('[Results truncated');
    // One file more than the limit is already truncated, and says so.
    const oneOver = await createGlobTool({ maxResults: 2 }).execute(
      { pattern: '*.ts', kind: 'GlobAction' },
      { workspace },
    );
    expect(oneOver).toMatchObject({
      truncated: true,
      files: [join(workspace, 'src/b.ts'), join(workspace, 'src/deep/c.ts')],
    });
    expect(text(oneOver)).toContain('[Results truncated to first 2 files.');
  });

  it('takes an empty pattern for every file, as the reference does', async () => {
    const observation = await glob({ pattern: '' });
    expect(observation).toMatchObject({ is_error: false, search_path: workspace });
    expect([...(observation.files as string[])].sort()).toEqual(
      ['a.ts', 'config.yaml', 'src/b.ts', 'src/d.js', 'src/deep/c.ts'].map((path) => join(workspace, path)),
    );
  });

  it('answers a pattern that cannot be compiled with an error observation naming it', async () => {
    const observation = await glob({ pattern: 'src/[z-a]*.ts' });
    expect(observation).toMatchObject({ is_error: true, files: [], search_path: workspace, pattern: 'src/[z-a]*.ts' });
    expect(text(observation)).toMatch(/^Invalid glob pattern 'src\/\[z-a\]\*\.ts': .*Range out of order/);
  });

  it('stops a walk over too many entries and says so', async () => {
    const observation = await createGlobTool({ maxEntries: 2 }).execute(
      { pattern: '*', kind: 'GlobAction' },
      { workspace },
    );
    expect(observation.truncated).toBe(true);
    expect(text(observation)).toContain('[The search stopped after 2 entries.');
  });

  it('refuses directories outside the workspace, lexically and through a symlink, with error observations', async () => {
    await symlink(outside, join(workspace, 'escape'));
    for (const path of ['..', outside, 'escape', '/etc']) {
      const observation = await glob({ pattern: '*', path });
      expect(observation).toMatchObject({ is_error: true, files: [], truncated: false, kind: 'GlobObservation' });
      expect(text(observation)).toMatch(/^Invalid path '.*': it resolves to .*outside the workspace/);
    }
    expect((await glob({ pattern: `${outside}/*.ts` })).is_error).toBe(true);
    await expect(resolveWorkspaceDirectory(workspace, '../outside')).rejects.toBeInstanceOf(WorkspacePathError);
    await expect(resolveWorkspaceDirectory(workspace, 'escape')).rejects.toMatchObject({ problem: 'outside' });
  });

  it('never follows a symlink inside the workspace, to a file or a directory outside', async () => {
    await symlink(outside, join(workspace, 'src', 'linked-dir'));
    await symlink(join(outside, 'secret.ts'), join(workspace, 'linked.ts'));
    const files = (await glob({ pattern: '**/*' })).files as string[];
    expect(files.some((file) => file.includes('linked') || file.includes('secret'))).toBe(false);
  });

  it('takes an absolute pattern without glob characters as the directory to search, as the reference does', async () => {
    // The reference splits `/ws/src` into the directory `/ws/src` and the pattern `**/*`: every file below it.
    const directory = await glob({ pattern: join(workspace, 'src') });
    expect(directory).toMatchObject({ is_error: false, search_path: join(workspace, 'src') });
    expect(directory.files).toEqual([
      join(workspace, 'src/b.ts'),
      join(workspace, 'src/deep/c.ts'),
      join(workspace, 'src/d.js'),
    ]);
    // A file named that way is a search directory that is not one: the reference's error, not a match.
    const file = await glob({ pattern: join(workspace, 'src/b.ts') });
    expect(file).toMatchObject({ is_error: true, files: [], search_path: join(workspace, 'src/b.ts') });
    expect(text(file)).toBe(`Search path '${join(workspace, 'src/b.ts')}' is not a valid directory`);
    // Confined to the workspace as any search directory.
    const beyond = await glob({ pattern: join(outside, 'secret.ts') });
    expect(beyond).toMatchObject({ is_error: true, files: [] });
    expect(text(beyond)).not.toContain('not a valid directory');
  });

  it('a path that is a file is not a valid directory', async () => {
    const observation = await glob({ pattern: '*', path: 'a.ts' });
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe(`Search path '${join(workspace, 'a.ts')}' is not a valid directory`);
  });
});

describe('glob patterns', () => {
  it('keep * and ? within a component, ** across, classes and escapes', () => {
    const matches = (pattern: string, path: string) => createGlobMatcher(pattern).matches(path);
    expect(matches('src/*.ts', 'src/a/b.ts')).toBe(false);
    expect(matches('src/**/*.ts', 'src/b.ts')).toBe(true);
    expect(matches('**/test_?.py', 'a/b/test_1.py')).toBe(true);
    expect(matches('[ab].txt', 'x/b.txt')).toBe(true);
    expect(matches('[!ab].txt', 'x/b.txt')).toBe(false);
    expect(matches('a.b', 'axb')).toBe(false);
    expect(matches('(x)+.txt', '(x)+.txt')).toBe(true);
  });
});
