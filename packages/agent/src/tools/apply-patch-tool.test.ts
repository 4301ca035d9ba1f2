import { link, mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool } from './apply-patch-tool.js';
import { toolToChatTool } from './chat-tool.js';

let root: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-patch-')));
  workspace = join(root, 'ws');
  outside = join(root, 'outside');
  await mkdir(join(workspace, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'top secret\n');
  await writeFile(join(workspace, 'src', 'app.py'), 'def greet():\n    print("hi")\n\ndef main():\n    greet()\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const apply = (patch: string) => applyPatchTool.execute({ patch, kind: 'ApplyPatchAction' }, { workspace });
const text = (observation: Observation) =>
  observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
const read = (path: string) => readFile(join(workspace, path), 'utf8');
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('apply_patch', () => {
  it('updates a file in context and records the reference ApplyPatchObservation with its commit', async () => {
    const observation = await apply(
      [
        '*** Begin Patch',
        '*** Update File: src/app.py',
        '@@ def greet():',
        '-    print("hi")',
        '+    print("hello")',
        '*** End Patch',
      ].join('\n'),
    );
    expect(observation).toEqual({
      content: [{ cache_prompt: false, type: 'text', text: 'Done!' }],
      is_error: false,
      message: 'Done!',
      fuzz: 0,
      commit: {
        changes: {
          'src/app.py': {
            type: 'update',
            old_content: 'def greet():\n    print("hi")\n\ndef main():\n    greet()\n',
            new_content: 'def greet():\n    print("hello")\n\ndef main():\n    greet()\n',
          },
        },
      },
      kind: 'ApplyPatchObservation',
    });
    expect(await read('src/app.py')).toBe('def greet():\n    print("hello")\n\ndef main():\n    greet()\n');
  });

  it('adds (creating directories), deletes and moves files in one patch', async () => {
    await writeFile(join(workspace, 'old.txt'), 'bye\n');
    const observation = await apply(
      [
        '*** Begin Patch',
        '*** Add File: docs/new/readme.md',
        '+# Title',
        '+body',
        '*** Delete File: old.txt',
        '*** Update File: src/app.py',
        '*** Move to: lib/app.py',
        '@@',
        ' def main():',
        '-    greet()',
        '+    greet()',
        '+    greet()',
        '*** End Patch',
      ].join('\n'),
    );
    expect(observation.is_error).toBe(false);
    expect(await read('docs/new/readme.md')).toBe('# Title\nbody');
    expect(await exists(join(workspace, 'old.txt'))).toBe(false);
    expect(await exists(join(workspace, 'src/app.py'))).toBe(false);
    expect(await read('lib/app.py')).toContain('    greet()\n    greet()\n');
    expect((observation.commit as { changes: Record<string, { type: string }> }).changes).toMatchObject({
      'docs/new/readme.md': { type: 'add', new_content: '# Title\nbody' },
      'old.txt': { type: 'delete', old_content: 'bye\n' },
      'src/app.py': { type: 'update', move_path: 'lib/app.py' },
    });
  });

  it('keeps a file whose move names the file itself (as given, through `./`, through a symlinked directory)', async () => {
    // The move wrote the file, then removed it under its other name: the only copy was lost.
    await symlink('src', join(workspace, 'source-link'));
    await symlink('.', join(workspace, 'here'));
    for (const target of ['src/app.py', './src/app.py', 'source-link/app.py', 'here/src/app.py']) {
      await writeFile(join(workspace, 'src', 'app.py'), 'def greet():\n    print("hi")\n');
      const observation = await apply(
        [
          '*** Begin Patch',
          '*** Update File: src/app.py',
          `*** Move to: ${target}`,
          '@@ def greet():',
          '-    print("hi")',
          `+    print("moved to ${target}")`,
          '*** End Patch',
        ].join('\n'),
      );
      expect(text(observation)).toBe('Done!');
      expect(await read('src/app.py')).toContain(`print("moved to ${target}")`);
    }
  });

  it('moves a file onto one the same patch deletes, whichever comes first in the patch', async () => {
    for (const deleteFirst of [false, true]) {
      await writeFile(join(workspace, 'old.txt'), 'replaced\n');
      await writeFile(join(workspace, 'new.txt'), 'kept\n');
      const move = ['*** Update File: new.txt', '*** Move to: old.txt', '@@', '-kept', '+kept and moved'];
      const remove = ['*** Delete File: old.txt'];
      const body = deleteFirst ? [...remove, ...move] : [...move, ...remove];
      const observation = await apply(['*** Begin Patch', ...body, '*** End Patch'].join('\n'));
      expect(text(observation)).toBe('Done!');
      expect(await read('old.txt')).toBe('kept and moved\n');
      expect(await exists(join(workspace, 'new.txt'))).toBe(false);
    }
  });

  it('matches context that differs in whitespace, counting fuzz', async () => {
    const observation = await apply(
      [
        '*** Begin Patch',
        '*** Update File: src/app.py',
        ' def main():   ',
        '-    greet()',
        '+    main2()',
        '*** End Patch',
      ].join('\n'),
    );
    expect(observation).toMatchObject({ is_error: false, fuzz: 1 });
    expect(await read('src/app.py')).toContain('def main():\n    main2()\n');
  });

  it('reports malformed patches and missing context as error observations, writing nothing', async () => {
    const cases: [string, RegExp][] = [
      ['no header', /^Invalid patch: must start with '\*\*\* Begin Patch'$/],
      ['*** Begin Patch\n*** Frobnicate: x\n*** End Patch', /^Unknown Line: \*\*\* Frobnicate: x$/],
      ['*** Begin Patch\n*** Add File: a.txt\n+x', /^Invalid patch text$/],
      ['*** Begin Patch\n*** Add File: a.txt\nno plus\n*** End Patch', /^Invalid Add File Line: no plus$/],
      [
        '*** Begin Patch\n*** Update File: missing.py\n-x\n*** End Patch',
        /^Delete File Error: Missing File: missing\.py$/,
      ],
      [
        '*** Begin Patch\n*** Update File: src/app.py\n-not there\n+y\n*** End Patch',
        /^Invalid Context 0:\nnot there$/,
      ],
    ];
    for (const [patch, message] of cases) {
      const observation = await apply(patch);
      expect(observation).toEqual({
        content: [{ cache_prompt: false, type: 'text', text: expect.stringMatching(message) }],
        is_error: true,
        message: '',
        fuzz: 0,
        kind: 'ApplyPatchObservation',
      });
    }
    expect(await exists(join(workspace, 'a.txt'))).toBe(false);
  });

  it('refuses paths outside the workspace before writing anything', async () => {
    const hostile = [
      '*** Add File: ../outside/planted.txt',
      `*** Add File: ${join(outside, 'planted.txt')}`,
      `*** Delete File: ${join(outside, 'secret.txt')}`,
      '*** Delete File: ../outside/secret.txt',
    ];
    for (const line of hostile) {
      const patch = ['*** Begin Patch', '*** Add File: first.txt', '+first', line, '+x', '*** End Patch']
        .filter((entry) => !(line.startsWith('*** Delete') && entry === '+x'))
        .join('\n');
      const observation = await apply(patch);
      expect(observation.is_error).toBe(true);
      expect(text(observation)).toMatch(/^Invalid path '.*': it (resolves to .*, )?(lies )?outside the workspace/);
    }
    expect(await exists(join(outside, 'planted.txt'))).toBe(false);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
    // The patch is refused as a whole: its first file, inside the workspace, is not written either.
    expect(await exists(join(workspace, 'first.txt'))).toBe(false);
  });

  it('refuses a path with a NUL byte as an error observation, writing nothing', async () => {
    const observation = await apply('*** Begin Patch\n*** Add File: bad\0name.txt\n+x\n*** End Patch');
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe("Invalid path 'bad\0name.txt': it contains a NUL byte.");
    expect(await exists(join(workspace, 'bad'))).toBe(false);
  });

  it('refuses a move out of the workspace with the reference message', async () => {
    const observation = await apply(
      [
        '*** Begin Patch',
        '*** Update File: src/app.py',
        '*** Move to: ../outside/app.py',
        '@@',
        '-def main():',
        '+def go():',
        '*** End Patch',
      ].join('\n'),
    );
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe(
      "Update File Error: Invalid move path '../outside/app.py': must be a relative path without '..' components",
    );
  });

  it('never writes or reads through a symlink or a hard link leading out', async () => {
    await symlink(join(outside, 'secret.txt'), join(workspace, 'link.txt'));
    await symlink(outside, join(workspace, 'dir-link'));
    await link(join(outside, 'secret.txt'), join(workspace, 'hard.txt'));
    const viaLink = await apply('*** Begin Patch\n*** Update File: link.txt\n-top secret\n+owned\n*** End Patch');
    expect(viaLink.is_error).toBe(true);
    expect(text(viaLink)).toMatch(/outside the workspace/);
    const viaDir = await apply('*** Begin Patch\n*** Add File: dir-link/planted.txt\n+x\n*** End Patch');
    expect(viaDir.is_error).toBe(true);
    const viaHardLink = await apply('*** Begin Patch\n*** Update File: hard.txt\n-top secret\n+owned\n*** End Patch');
    expect(viaHardLink.is_error).toBe(true);
    expect(text(viaHardLink)).toMatch(/hard links/);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
    expect(await exists(join(outside, 'planted.txt'))).toBe(false);
  });

  it('refuses to add a file through a symlink whose target does not exist, saying so', async () => {
    await symlink(join(outside, 'not-yet'), join(workspace, 'ghost'));
    for (const path of ['ghost', 'ghost/planted.txt']) {
      const observation = await apply(`*** Begin Patch\n*** Add File: ${path}\n+x\n*** End Patch`);
      expect(observation.is_error).toBe(true);
      expect(text(observation)).toBe(`Invalid path '${path}': it goes through a symlink whose target does not exist.`);
    }
    expect(await exists(join(outside, 'not-yet'))).toBe(false);
  });
});

describe('apply_patch as a tool that writes', () => {
  it('asks the model for a security_risk, as every tool that is not read-only does', () => {
    const properties = toolToChatTool(applyPatchTool).function.parameters.properties as Record<string, unknown>;
    expect(Object.keys(properties)).toContain('security_risk');
  });

  it('leaves no directory behind for an update of a file in a directory that does not exist', async () => {
    const observation = await apply('*** Begin Patch\n*** Update File: ghost/deeper/a.py\n@@\n-x\n+y\n*** End Patch');
    expect(observation.is_error).toBe(true);
    expect(await exists(join(workspace, 'ghost'))).toBe(false);
  });
});
