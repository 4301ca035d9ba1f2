// `~` in the search tools' patterns and paths: expanded as the reference's glob tool expands its pattern
// (`os.path.expanduser`), then confined to the workspace like any path, so a home directory outside it is refused
// with the tools' error and nothing of it is listed.
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';
import { expandHome } from './internal/expand-home.js';
import { InvalidToolError } from './invalid-tool-error.js';

let root: string;
let workspace: string;
/** A home directory inside the workspace (a workspace that is the user's home, as `x run` in ~ makes it). */
let homeInside: string;
/** A home directory beside the workspace, with a file that must never be listed. */
let homeOutside: string;

async function put(path: string, text: string, mtime: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  await utimes(path, mtime, mtime);
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-search-home-')));
  workspace = join(root, 'ws');
  homeInside = join(workspace, 'home');
  homeOutside = join(root, 'home-outside');
  await put(join(homeInside, 'src', 'a.ts'), 'needle a', 2000);
  await put(join(homeInside, 'b.ts'), 'needle b', 1000);
  await put(join(workspace, 'c.ts'), 'needle c', 3000);
  await put(join(homeOutside, 'secret.ts'), 'needle secret', 4000);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const text = (observation: Observation) =>
  observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('expandHome', () => {
  it('expands ~ and ~/rest, and ~name for this user only, as expanduser does', () => {
    const own = userInfo().username;
    expect(expandHome('~', '/home/me')).toBe('/home/me');
    expect(expandHome('~/src/*.ts', '/home/me/')).toBe('/home/me/src/*.ts');
    expect(expandHome(`~${own}/x`, '/home/me')).toBe('/home/me/x');
    expect(expandHome('~', '/')).toBe('/');
    expect(expandHome('~someone-else-entirely/x', '/home/me')).toBe('~someone-else-entirely/x');
    expect(expandHome('src/~/x', '/home/me')).toBe('src/~/x');
    expect(expandHome('**/*.ts', '/home/me')).toBe('**/*.ts');
  });
});

describe('glob with ~', () => {
  it('searches the home directory a pattern starts with, showing paths under it', async () => {
    const glob = createGlobTool({ home: homeInside });
    const result = await glob.execute({ pattern: '~/**/*.ts', kind: 'GlobAction' }, { workspace });
    expect(result.is_error).not.toBe(true);
    expect(result.files).toEqual([join(homeInside, 'src', 'a.ts'), join(homeInside, 'b.ts')]);
    expect(result.search_path).toBe(homeInside);
    expect(result.pattern).toBe('~/**/*.ts');
  });

  it('searches a path given as ~/dir', async () => {
    const glob = createGlobTool({ home: homeInside });
    const result = await glob.execute({ pattern: '*.ts', path: '~/src', kind: 'GlobAction' }, { workspace });
    expect(result.files).toEqual([join(homeInside, 'src', 'a.ts')]);
  });

  it('refuses a home outside the workspace, in the pattern or the path, listing nothing of it', async () => {
    const glob = createGlobTool({ home: homeOutside });
    for (const action of [{ pattern: '~/*.ts' }, { pattern: '*.ts', path: '~' }]) {
      const result = await glob.execute({ ...action, kind: 'GlobAction' }, { workspace });
      expect(result.is_error, JSON.stringify(action)).toBe(true);
      expect(result.files).toEqual([]);
      expect(text(result)).toContain(`outside the workspace ${workspace}`);
      expect(text(result)).not.toContain('secret.ts');
    }
  });
});

describe('grep with ~', () => {
  it('searches a path given as ~', async () => {
    const grep = createGrepTool({ home: homeInside });
    const result = await grep.execute({ pattern: 'needle', path: '~', kind: 'GrepAction' }, { workspace });
    expect(result.matches).toEqual([join(homeInside, 'src', 'a.ts'), join(homeInside, 'b.ts')]);
    expect(result.search_path).toBe(homeInside);
  });

  it('refuses a home outside the workspace with the tool error', async () => {
    const grep = createGrepTool({ home: homeOutside });
    const result = await grep.execute({ pattern: 'needle', path: '~/', kind: 'GrepAction' }, { workspace });
    expect(result.is_error).toBe(true);
    expect(result.matches).toEqual([]);
    expect(text(result)).toContain(`outside the workspace ${workspace}`);
  });
});

describe('the home option', () => {
  it('must be an absolute path', () => {
    expect(() => createGlobTool({ home: 'relative/home' })).toThrow(InvalidToolError);
    expect(() => createGrepTool({ home: '' })).toThrow("grep tool option home must be an absolute path, got ''");
  });
});
