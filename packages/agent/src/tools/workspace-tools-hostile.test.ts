import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApplyPatchTool } from './apply-patch-tool.js';
import { createFileEditorTool } from './file-editor-tool.js';
import { createGlobTool } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';

const SECRET = 'TOPSECRET-outside-the-workspace';
let root: string;
let workspace: string;
let outside: string;

/** Everything under `dir`, names and contents: the outside directory must be exactly this after every attempt. */
async function snapshot(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const lines = await Promise.all(
    entries.map(async (entry) => {
      const path = join(entry.parentPath, entry.name);
      return entry.isFile() ? `${path}=${await readFile(path, 'utf8')}` : `${path}/`;
    }),
  );
  return lines.sort().join('\n');
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-hostile-paths-')));
  workspace = join(root, 'ws');
  outside = join(root, 'out');
  await mkdir(workspace);
  await mkdir(join(root, 'home'));
  glob = createGlobTool({ home: join(root, 'home') });
  grep = createGrepTool({ home: join(root, 'home') });
  await mkdir(join(outside, 'dir'), { recursive: true });
  await writeFile(join(outside, 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(outside, 'dir', 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(workspace, 'file.txt'), 'hello\n');
  await symlink(join(outside, 'secret.txt'), join(workspace, 'link-to-secret'));
  await symlink('../out/secret.txt', join(workspace, 'relative-link'));
  await symlink(outside, join(workspace, 'link-to-outside'));
  await symlink('link-to-outside', join(workspace, 'chain'));
  await symlink(join(outside, 'not-yet'), join(workspace, 'dangling'));
  await symlink('loop-b', join(workspace, 'loop-a'));
  await symlink('loop-a', join(workspace, 'loop-b'));
  await link(join(outside, 'secret.txt'), join(workspace, 'hard-link'));
  await mkdir(join(workspace, 'deep'));
  await symlink('..', join(workspace, 'deep', 'up'));
  execFileSync('mkfifo', [join(workspace, 'fifo')]);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** Spellings that try to reach `out/` from `ws/`: lexical, encoded, look-alike, absolute, through links. */
function hostilePaths(): string[] {
  return [
    '../out/secret.txt',
    '../../../../../../../../etc/passwd',
    './../out/secret.txt',
    'file.txt/../../out/secret.txt',
    'deep/../../out/secret.txt',
    `${workspace}/../out/secret.txt`,
    `${workspace}/./../out/secret.txt`,
    `${workspace}//..//out//secret.txt`,
    `${outside}/secret.txt`,
    `${outside}/dir/`,
    `${outside}/new.txt`,
    `//${outside.slice(1)}/secret.txt`,
    '/etc/passwd',
    '/proc/self/root/etc/passwd',
    `/proc/self/root${outside}/secret.txt`,
    `/proc/self/cwd/x`,
    '/dev/zero',
    'link-to-secret',
    'relative-link',
    'link-to-outside/secret.txt',
    'link-to-outside/new.txt',
    'link-to-outside/dir/',
    'chain/secret.txt',
    'chain/new-dir/new.txt',
    'dangling',
    'dangling/x',
    'loop-a',
    'loop-a/x',
    'fifo',
    'file.txt/x',
    `${'a'.repeat(256)}`,
    `${'a'.repeat(300)}/x`,
    `${'d/'.repeat(2100)}x`,
    'x'.repeat(5000),
    'nul\0/../../out/secret.txt',
  ];
}

/**
 * Spellings that may be accepted but must stay inside: `..` after a symlink is collapsed lexically first
 * (`deep/up/../out` is `deep/out`, inside, not the kernel's `ws/../out`), a hard link's name is replaced or removed
 * (never written through), and no path means the workspace itself.
 */
function confinedPaths(): string[] {
  return ['deep/up/../out/secret.txt', 'deep/up/up/up/out/secret.txt', 'hard-link', ''];
}

/** Spellings that only look like an escape: on Linux each is a plain name inside the workspace. */
function lookAlikes(): string[] {
  return [
    '%2e%2e/out/secret.txt',
    '%252e%252e/out/secret.txt',
    '..%2fout%2fsecret.txt',
    '..\\out\\secret.txt',
    '\u2025/out/secret.txt', // two-dot leader
    '\uff0e\uff0e/out/secret.txt', // fullwidth full stops
    '.\u0307./out/secret.txt',
    '~/out/secret.txt',
    '~root/x',
    '$HOME/x',
    'caf\u00e9.txt',
    'cafe\u0301.txt',
    'trailing/',
  ];
}

const editor = createFileEditorTool();
// `~` in glob's and grep's paths stands for a home of this test's own, not the run's HOME, which every test file of
// the run shares and writes to while this one runs: what `~/out/secret.txt` meant depended on what they had made.
let glob: ReturnType<typeof createGlobTool>;
let grep: ReturnType<typeof createGrepTool>;
const patch = createApplyPatchTool();

/** Every tool that takes a path, as one call each. */
function attempts(path: string): [string, () => Promise<{ is_error?: boolean; content: unknown[] }>][] {
  const context = { workspace };
  const file =
    (command: string, extra: Record<string, unknown> = {}) =>
    () =>
      editor.execute({ kind: 'FileEditorAction', command, path, ...extra } as never, context);
  const patchOf = (body: string) => () =>
    patch.execute({ patch: `*** Begin Patch\n${body}\n*** End Patch` } as never, context);
  return [
    ['view', file('view')],
    ['create', file('create', { file_text: 'planted\n' })],
    ['str_replace', file('str_replace', { old_str: 'TOPSECRET', new_str: 'changed' })],
    ['insert', file('insert', { insert_line: 0, new_str: 'planted\n' })],
    ['glob', () => glob.execute({ pattern: '**/*', path } as never, context)],
    ['grep', () => grep.execute({ pattern: 'TOPSECRET', path } as never, context)],
    ['patch add', patchOf(`*** Add File: ${path}\n+planted`)],
    ['patch update', patchOf(`*** Update File: ${path}\n@@\n-hello\n+changed`)],
    ['patch delete', patchOf(`*** Delete File: ${path}`)],
    ['patch move', patchOf(`*** Update File: file.txt\n*** Move to: ${path}\n@@\n-hello\n+hello`)],
  ];
}

describe('workspace tools against hostile path spellings', () => {
  it('never read, write, create or delete outside the workspace, and answer every spelling with an error observation', async () => {
    const before = await snapshot(outside);
    const problems: string[] = [];
    const refused = new Set(hostilePaths());
    for (const path of [...hostilePaths(), ...confinedPaths()]) {
      for (const [name, run] of attempts(path)) {
        const shown = `${name} ${JSON.stringify(path.slice(0, 60))}`;
        // The move attempts take file.txt away when the target is inside: put it back.
        await writeFile(join(workspace, 'file.txt'), 'hello\n');
        try {
          const observation = await run();
          if (JSON.stringify(observation).includes(SECRET))
            problems.push(`${shown}: the outside file's content leaked`);
          if (refused.has(path) && observation.is_error !== true) problems.push(`${shown}: not refused`);
        } catch (error) {
          problems.push(`${shown}: threw ${(error as Error).message.slice(0, 120)}`);
        }
        const after = await snapshot(outside);
        if (after !== before) {
          problems.push(`${shown}: changed the outside directory`);
          await rm(outside, { recursive: true, force: true });
          await mkdir(join(outside, 'dir'), { recursive: true });
          await writeFile(join(outside, 'secret.txt'), `${SECRET}\n`);
          await writeFile(join(outside, 'dir', 'secret.txt'), `${SECRET}\n`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('treat encoded, look-alike and shell-like spellings as plain names inside the workspace', async () => {
    const before = await snapshot(outside);
    const problems: string[] = [];
    for (const path of lookAlikes()) {
      for (const [name, run] of attempts(path)) {
        await writeFile(join(workspace, 'file.txt'), 'hello\n');
        try {
          const observation = await run();
          if (JSON.stringify(observation).includes(SECRET)) problems.push(`${name} ${path}: leaked`);
        } catch (error) {
          problems.push(`${name} ${path}: threw ${(error as Error).message.slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshot(outside)).toBe(before);
    // What they made went into the workspace under the literal name (NFC and NFD are two names on Linux).
    const created = await readdir(workspace, { recursive: true });
    for (const name of ['%2e%2e/out/secret.txt', '..\\out\\secret.txt', '\u2025/out/secret.txt', '~/out/secret.txt']) {
      expect(created).toContain(name);
    }
    expect(created).toContain('caf\u00e9.txt');
    expect(created).toContain('cafe\u0301.txt');
  }, 300_000);

  it('name what was wrong: a symlink loop, a file used as a directory, a name too long', async () => {
    const view = async (path: string) => {
      const observation = await editor.execute({ kind: 'FileEditorAction', command: 'view', path } as never, {
        workspace,
      });
      return JSON.stringify(observation.content);
    };
    await writeFile(join(workspace, 'file.txt'), 'hello\n');
    expect(await view('loop-a/x')).toContain('a symbolic link that loops');
    // As the reference: a file used as a directory is a path that does not exist.
    expect(await view('file.txt/x')).toContain(`The path ${workspace}/file.txt/x does not exist.`);
    expect(await view('a'.repeat(300))).toContain('too long for the file system');
    expect(await view('x'.repeat(5000))).toContain('longer than 4096 characters');
  });
});
