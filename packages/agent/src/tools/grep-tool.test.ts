import { link, mkdir, mkdtemp, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool, grepTool } from './grep-tool.js';

let root: string;
let workspace: string;
let outside: string;

async function put(path: string, text: string | Buffer, mtime: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  await utimes(path, mtime, mtime);
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-grep-')));
  workspace = join(root, 'ws');
  outside = join(root, 'outside');
  await put(join(outside, 'secret.txt'), 'needle outside\n', 1000);
  await put(join(workspace, 'old.ts'), 'const x = 1;\n// Needle here\n', 1000);
  await put(join(workspace, 'src', 'new.tsx'), 'function   findNeedle() {}\n', 3000);
  await put(join(workspace, 'src', 'other.js'), 'nothing to see\n', 2000);
  await put(join(workspace, 'src', 'bin.dat'), Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]), 4000);
  await put(join(workspace, '.git', 'config'), 'needle in hidden dir\n', 5000);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const grep = (args: Record<string, unknown>, tool = grepTool) =>
  tool.execute({ ...args, kind: 'GrepAction' }, { workspace });
const text = (observation: Observation) =>
  observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('grep', () => {
  it('is read-only: the model is asked for no security risk', () => {
    expect(grepTool.readOnly).toBe(true);
    // The reference's GrepTool annotations.
    expect(grepTool.annotations).toEqual({
      title: 'grep',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('lists the files whose content matches, case-insensitive, newest first, in the reference GrepObservation', async () => {
    const observation = await grep({ pattern: 'needle' });
    const matches = [join(workspace, 'src/new.tsx'), join(workspace, 'old.ts')];
    expect(observation).toEqual({
      content: [
        {
          cache_prompt: false,
          type: 'text',
          text: `Found 2 file(s) containing pattern 'needle' in '${workspace}':\n${matches.join('\n')}`,
        },
      ],
      is_error: false,
      matches,
      pattern: 'needle',
      search_path: workspace,
      truncated: false,
      kind: 'GrepObservation',
    });
  });

  it('reads full regex syntax, Python named groups, and filters by include', async () => {
    expect((await grep({ pattern: 'function\\s+\\w+' })).matches).toEqual([join(workspace, 'src/new.tsx')]);
    expect((await grep({ pattern: '^// (?P<word>needle)' })).matches).toEqual([join(workspace, 'old.ts')]);
    const filtered = await grep({ pattern: 'needle', include: '*.{ts,js}' });
    expect(filtered).toMatchObject({ matches: [join(workspace, 'old.ts')], include_pattern: '*.{ts,js}' });
    expect(text(filtered)).toContain("(filtered by '*.{ts,js}')");
    const none = await grep({ pattern: 'absent', path: 'src' });
    expect(text(none)).toBe(`No files found containing pattern 'absent' in directory '${join(workspace, 'src')}'`);
  });

  it('reports an invalid regex as an error observation', async () => {
    const observation = await grep({ pattern: '(unclosed' });
    expect(observation).toMatchObject({ is_error: true, matches: [], kind: 'GrepObservation' });
    expect(text(observation)).toMatch(/^Invalid regex pattern: /);
  });

  it('stops a pattern that backtracks without end at the time limit, and the process goes on', async () => {
    await put(join(workspace, 'evil.txt'), `${'a'.repeat(64)}b\n`, 1000);
    const tool = createGrepTool({ timeoutSeconds: 1 });
    const observation = await grep({ pattern: '^(a+)+$', include: 'evil.txt' }, tool);
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toMatch(/took longer than 1 seconds and was stopped/);
    expect((await grep({ pattern: 'needle', include: '*.ts' }, tool)).matches).toEqual([join(workspace, 'old.ts')]);
  });

  it('refuses directories outside the workspace and never reads through links out', async () => {
    await symlink(outside, join(workspace, 'escape'));
    await symlink(join(outside, 'secret.txt'), join(workspace, 'linked.txt'));
    await link(join(outside, 'secret.txt'), join(workspace, 'hard.txt'));
    for (const path of ['../outside', outside, 'escape']) {
      const observation = await grep({ pattern: 'needle', path });
      expect(observation).toMatchObject({ is_error: true, matches: [], kind: 'GrepObservation' });
      expect(text(observation)).toMatch(/^Invalid path '.*': it resolves to .*outside the workspace/);
    }
    // The links are passed over without failing the search.
    expect(await grep({ pattern: 'outside' })).toMatchObject({ is_error: false, matches: [] });
  });

  it('skips files over the size limit and truncates to the newest matches', async () => {
    const small = createGrepTool({ maxFileBytes: 20 });
    expect(await grep({ pattern: 'needle' }, small)).toMatchObject({ is_error: false, matches: [] });
    // A file over the limit is passed over; the others are still searched.
    await put(join(workspace, 'big.txt'), `needle ${'x'.repeat(100)}\n`, 500);
    const limited = await grep({ pattern: 'needle' }, createGrepTool({ maxFileBytes: 50 }));
    expect(limited).toMatchObject({
      is_error: false,
      matches: [join(workspace, 'src/new.tsx'), join(workspace, 'old.ts')],
      truncated: false,
    });
    const exact = await grep({ pattern: 'needle' }, createGrepTool({ maxResults: 3 }));
    expect(exact).toMatchObject({
      matches: [join(workspace, 'src/new.tsx'), join(workspace, 'old.ts'), join(workspace, 'big.txt')],
      truncated: false,
    });
    expect(text(exact)).not.toContain('[Results truncated');
    const one = await grep({ pattern: 'needle' }, createGrepTool({ maxResults: 1 }));
    expect(one).toMatchObject({ matches: [join(workspace, 'src/new.tsx')], truncated: true });
    expect(text(one)).toBe(
      `Found 1 file(s) containing pattern 'needle' in '${workspace}':\n${join(workspace, 'src/new.tsx')}\n\n` +
        '[Results truncated to first 1 files. Consider using a more specific pattern.]',
    );
  });

  it('stops a walk over too many entries and says so, with what it found', async () => {
    const observation = await grep({ pattern: 'needle|nothing' }, createGrepTool({ maxEntries: 2 }));
    expect(observation.truncated).toBe(true);
    expect(text(observation)).toMatch(
      /\n\n\[The search stopped after 2 entries\. Consider giving a narrower path\.\]$/,
    );
    expect(text(observation)).not.toContain('[Results truncated');
  });
});

describe('grep: the include filter and the truncation note', () => {
  it('reads an empty include as no filter, and reports it as given', async () => {
    const observation = await grep({ pattern: 'needle', include: '' });
    expect(observation).toMatchObject({
      is_error: false,
      matches: [join(workspace, 'src/new.tsx'), join(workspace, 'old.ts')],
      include_pattern: '',
    });
    expect(text(observation)).not.toContain('filtered by');
  });

  it('names the include pattern in an error observation only when one was given', async () => {
    const withInclude = await grep({ pattern: '(unclosed', include: '*.ts' });
    expect(withInclude).toMatchObject({ is_error: true, include_pattern: '*.ts', search_path: workspace });
    expect(await grep({ pattern: '(unclosed' })).not.toHaveProperty('include_pattern');
  });

  it('refuses an include pattern that is no glob with an error observation naming it', async () => {
    const observation = await grep({ pattern: 'needle', include: '[z-a]' });
    expect(observation).toMatchObject({ is_error: true, matches: [], include_pattern: '[z-a]', truncated: false });
    expect(text(observation)).toMatch(/^Invalid include pattern '\[z-a\]': /);
  });

  it('adds the truncation note when a single file more than the limit matched', async () => {
    await put(join(workspace, 'third.txt'), 'needle\n', 500);
    const observation = await grep({ pattern: 'needle' }, createGrepTool({ maxResults: 2 }));
    expect(observation).toMatchObject({
      matches: [join(workspace, 'src/new.tsx'), join(workspace, 'old.ts')],
      truncated: true,
    });
    expect(text(observation)).toMatch(
      /\n\n\[Results truncated to first 2 files\. Consider using a more specific pattern\.\]$/,
    );
  });
});
