import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globTool } from './glob-tool.js';
import { grepTool } from './grep-tool.js';

// The grep and glob tools leave out what ripgrep (the reference's search) leaves out: `.gitignore` inside a git
// repository, `.ignore` and `.rgignore` anywhere, with gitignore's syntax and precedence.

let root: string;

async function put(relative: string, text = 'needle\n'): Promise<void> {
  await mkdir(dirname(join(root, relative)), { recursive: true });
  await writeFile(join(root, relative), text);
}

const files = [
  'src/app.ts',
  'src/app.log',
  'src/keep.log',
  'node_modules/lib/index.js',
  'build/out.js',
  'src/build/generated.ts',
  'docs/guide.md',
  'docs/deep/nested.md',
  'notes.md',
  'sub/local.tmp',
  'sub/kept.txt',
  'sub/vendor/x.txt',
  'other/local.tmp',
  '#literal',
  'trailing.txt',
];

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-ignore-')));
  for (const file of files) await put(file);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const text = (observation: Observation) =>
  observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** The files each tool finds, relative to the workspace, sorted. */
async function found(path?: string): Promise<{ glob: string[]; grep: string[] }> {
  const where = path === undefined ? {} : { path };
  const globbed = await globTool.execute({ kind: 'GlobAction', pattern: '**/*', ...where }, { workspace: root });
  const grepped = await grepTool.execute({ kind: 'GrepAction', pattern: 'needle', ...where }, { workspace: root });
  const list = (observation: Observation) =>
    text(observation)
      .split('\n')
      .filter((line) => line.startsWith(root))
      .map((line) => line.slice(root.length + 1))
      .sort();
  return { glob: list(globbed), grep: list(grepped) };
}

const gitignore = [
  '# dependencies',
  'node_modules/',
  '*.log',
  '!keep.log',
  '/build',
  'docs/*.md',
  '\\#literal',
  'trailing.txt   ',
  '',
].join('\n');

describe('ignore files', () => {
  it('leave out what a .gitignore names inside a git repository, and both tools agree', async () => {
    await mkdir(join(root, '.git'));
    await put('.gitignore', gitignore);
    await put('sub/.gitignore', '*.tmp\nvendor\n');
    const expected = [
      'docs/deep/nested.md',
      'notes.md',
      'other/local.tmp',
      'src/app.ts',
      'src/build/generated.ts',
      'src/keep.log',
      'sub/kept.txt',
    ];
    expect(await found()).toEqual({ glob: expected, grep: expected });
  });

  it('read .gitignore only inside a git repository, and .ignore and .rgignore anywhere', async () => {
    await put('.gitignore', gitignore);
    await put('.ignore', 'node_modules/\n');
    await put('sub/.rgignore', 'vendor/\n');
    const { glob } = await found();
    expect(glob).toContain('src/app.log');
    expect(glob).toContain('build/out.js');
    expect(glob).not.toContain('node_modules/lib/index.js');
    expect(glob).not.toContain('sub/vendor/x.txt');
    expect(glob).toContain('sub/local.tmp');
    expect(glob).toContain('trailing.txt');
    expect(glob).toContain('#literal');
  });

  it('apply a nested file to its own directory only, its anchored patterns from there', async () => {
    await mkdir(join(root, '.git'));
    await put('sub/.gitignore', '/local.tmp\n');
    const { glob } = await found();
    expect(glob).not.toContain('sub/local.tmp');
    expect(glob).toContain('other/local.tmp');
  });

  it('let a deeper file re-include what a shallower one left out', async () => {
    await mkdir(join(root, '.git'));
    await put('.gitignore', '*.tmp\n');
    await put('sub/.gitignore', '!local.tmp\n');
    const { glob } = await found();
    expect(glob).toContain('sub/local.tmp');
    expect(glob).not.toContain('other/local.tmp');
  });

  it('apply in a searched subdirectory of a git repository, paths taken from that directory', async () => {
    await mkdir(join(root, '.git'));
    await put('sub/.gitignore', 'vendor/\n');
    const { glob } = await found('sub');
    expect(glob).toEqual(['sub/kept.txt', 'sub/local.tmp']);
  });

  it('leave out only directories for a pattern ending with a slash', async () => {
    await mkdir(join(root, '.git'));
    await put('.gitignore', 'notes.md/\napp.ts/\n');
    const { glob } = await found();
    expect(glob).toContain('notes.md');
    expect(glob).toContain('src/app.ts');
  });
});
