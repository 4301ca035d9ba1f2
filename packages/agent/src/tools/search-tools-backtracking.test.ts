// glob and grep run in the host's own process (the server's), not in the sandbox. Their glob patterns (glob's
// pattern, grep's include, the lines of the ignore files) were compiled to regular expressions, which backtrack:
// `*a*a*a*a*a*a*a*a*a*a*a*a*b` against a name of forty `a`s took minutes, freezing every conversation of the
// server. The pattern may come from the model, and the ignore files from the workspace, which a sandboxed command
// (or a cloned repository) writes. Globs are now matched in time linear in the name.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globTool } from './glob-tool.js';
import { grepTool } from './grep-tool.js';
import { compileGlob } from './internal/glob-pattern.js';

/** Twelve stars between literals: a regular expression made of it backtracks through every split of the name. */
const HOSTILE = '*a*a*a*a*a*a*a*a*a*a*a*a*b';
const LONG_NAME = 'a'.repeat(200);
/** Far above what the automaton needs on a loaded machine; the regular expression needed hours. */
const PROMPT_MS = 10_000;

let root: string;
let workspace: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-search-backtracking-'));
  workspace = join(root, 'ws');
  await mkdir(workspace);
  await writeFile(join(workspace, LONG_NAME), 'needle\n');
  await writeFile(join(workspace, `${LONG_NAME}b`), 'needle\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const text = (observation: Observation) =>
  observation.content.map((part) => ('text' in part ? part.text : '')).join('');

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await run();
  return { value, ms: Date.now() - started };
}

describe('a glob that would backtrack', () => {
  it("answers glob's pattern at once, and still matches what it names", async () => {
    const { value, ms } = await timed(() =>
      globTool.execute({ pattern: HOSTILE, kind: 'GlobAction' }, { workspace, conversationId: 'c' }),
    );
    expect(ms).toBeLessThan(PROMPT_MS);
    expect(value.files).toEqual([join(workspace, `${LONG_NAME}b`)]);
  });

  it("answers grep's include at once", async () => {
    const { value, ms } = await timed(() =>
      grepTool.execute({ pattern: 'needle', include: HOSTILE, kind: 'GrepAction' }, { workspace, conversationId: 'c' }),
    );
    expect(ms).toBeLessThan(PROMPT_MS);
    expect(value.matches).toEqual([join(workspace, `${LONG_NAME}b`)]);
  });

  it('in an ignore file the workspace holds, freezes no later search, and the rule still applies', async () => {
    await writeFile(join(workspace, '.ignore'), `${HOSTILE}\n`);
    const { value, ms } = await timed(() =>
      grepTool.execute({ pattern: 'needle', kind: 'GrepAction' }, { workspace, conversationId: 'c' }),
    );
    expect(ms).toBeLessThan(PROMPT_MS);
    expect(value.matches, text(value)).toEqual([join(workspace, LONG_NAME)]);
  });
});

describe('compileGlob', () => {
  it('matches as the gitignore-style glob it reads: stars, classes, braces, directories, escapes', () => {
    const cases: [string, string, boolean][] = [
      ['*.ts', 'a.ts', true],
      ['*.ts', 'dir/a.ts', false],
      ['src/**/*.ts', 'src/a.ts', true],
      ['src/**/*.ts', 'src/x/y/a.ts', true],
      ['src/**/*.ts', 'lib/a.ts', false],
      ['**', 'a/b/c', true],
      ['a**b', 'a/x/b', true],
      ['?.md', 'a.md', true],
      ['?.md', '/.md', false],
      ['[a-c]x', 'bx', true],
      ['[!a-c]x', 'bx', false],
      ['[^a-c]x', 'dx', true],
      ['*.{ts,tsx}', 'a.tsx', true],
      ['*.{ts,tsx}', 'a.js', false],
      ['{a,{b,c}d}e', 'cde', true],
      ['{a,b', '{a,b', true],
      ['x{a,b}', 'xb', true],
      ['a}', 'a}', true],
      ['[x', '[x', true],
      ['\\*', '*', true],
      ['\\*', 'a', false],
      ['', '', true],
    ];
    for (const [glob, path, expected] of cases) expect(compileGlob(glob)(path), `${glob} ${path}`).toBe(expected);
  });

  it('matches names with characters outside the BMP (emoji, CJK extensions) as the regular expression did', () => {
    const cases: [string, string, boolean][] = [
      ['*😀*', 'a😀b.txt', true],
      ['😀.md', '😀.md', true],
      ['*.😀', 'notes.😀', true],
      ['a😀?', 'a😀b', true],
      ['*😀*', 'a😁b.txt', false],
      ['𠀀*', '𠀀文件.txt', true],
      ['{😀,x}.md', 'x.md', true],
      ['{😀,x}.md', '😀.md', true],
    ];
    for (const [glob, path, expected] of cases) expect(compileGlob(glob)(path), `${glob} ${path}`).toBe(expected);
  });

  it('refuses a class whose range is out of order, as a regular expression did', () => {
    expect(() => compileGlob('[z-a]')).toThrow(/Range out of order/);
  });
});
