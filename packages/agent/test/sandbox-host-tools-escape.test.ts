// Links made by a sandboxed command, then followed by the tools that run on the HOST (file_editor, glob, grep,
// apply_patch): inside, an absolute link to a host path points at nothing, but the host would follow it. Each
// link is made by real commands in the real sandbox, including a loop that keeps swapping a directory for such
// a link while the host tools work in it (the check-then-open race). Nothing outside the workspace may be read
// or written, whatever the link and whenever the swap.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { createApplyPatchTool } from '../src/tools/apply-patch-tool.js';
import { createFileEditorTool } from '../src/tools/file-editor-tool.js';
import { createGlobTool } from '../src/tools/glob-tool.js';
import { createGrepTool } from '../src/tools/grep-tool.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout, waitFor } from './support/sandbox-fixture.js';

let layout: ServerLayout;
let sandbox: Sandbox;
let outside: string;
const SECRET = `outside-secret-${randomBytes(6).toString('hex')}`;
const editor = createFileEditorTool();
const glob = createGlobTool();
const grep = createGrepTool();
const patch = createApplyPatchTool();

function sh(script: string) {
  return runSandboxed(sandbox, {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: 120_000,
  });
}

const context = () => ({ workspace: layout.workspace });

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  outside = join(layout.home, '.ssh');
  mkdirSync(outside);
  writeFileSync(join(outside, 'id_ed25519'), SECRET);
  sandbox = await createSandbox({ policy: {}, workspace: layout.workspace });
});

afterAll(async () => {
  await sandbox.dispose();
  rmSync(layout.root, { recursive: true, force: true });
});

describe('links made inside the sandbox', () => {
  it('are not followed out by the host tools, absolute or relative, to a file or a directory', async () => {
    const up = relative(layout.workspace, outside);
    const made = await sh(
      [
        `ln -s ${outside}/id_ed25519 key`,
        `ln -s ${outside} ssh`,
        `ln -s ${up}/id_ed25519 relkey`,
        `ln -s ${up} relssh`,
        'echo inside > mine.txt',
        // A hard link to a file outside: the only ones visible are the system's, on other mounts.
        'ln /etc/hostname hard 2>&1 || echo "hard link refused"',
        'ln mine.txt mine-again.txt',
      ].join('; '),
    );
    expect(made.stdout).toContain('hard link refused');
    // The control: on the host, a plain read follows each of them out.
    for (const path of ['key', 'ssh/id_ed25519', 'relkey', 'relssh/id_ed25519'])
      expect(readFileSync(join(layout.workspace, path), 'utf8')).toBe(SECRET);
    const outputs: unknown[] = [];
    for (const path of ['key', 'ssh/id_ed25519', 'relkey', 'relssh/id_ed25519', 'mine-again.txt', 'ssh'])
      outputs.push(await editor.execute({ command: 'view', path, kind: 'FileEditorAction' } as never, context()));
    outputs.push(
      await editor.execute(
        { command: 'create', path: 'ssh/authorized_keys', file_text: 'planted', kind: 'FileEditorAction' } as never,
        context(),
      ),
      await editor.execute(
        { command: 'str_replace', path: 'key', old_str: SECRET, new_str: 'x', kind: 'FileEditorAction' } as never,
        context(),
      ),
      await glob.execute({ pattern: '**/*', kind: 'GlobAction' } as never, context()),
      await grep.execute({ pattern: 'outside-secret', kind: 'GrepAction' } as never, context()),
      await grep.execute(
        { pattern: 'outside-secret', path: `${layout.workspace}/ssh`, kind: 'GrepAction' } as never,
        context(),
      ),
      await patch.execute(
        {
          patch: ['*** Begin Patch', '*** Add File: relssh/planted', '+planted', '*** End Patch'].join('\n'),
          kind: 'ApplyPatchAction',
        } as never,
        context(),
      ),
    );
    expect(JSON.stringify(outputs)).not.toContain(SECRET);
    expect(readdirSync(outside)).toEqual(['id_ed25519']);
  });

  it('swapped in and out by a running command while the host tools work: never followed out', async () => {
    mkdirSync(join(layout.workspace, 'd'), { recursive: true });
    writeFileSync(join(layout.workspace, 'd', 'f.txt'), 'a file of the workspace\n');
    // Swaps `d` for a link to the outside directory and back, as fast as it can, until told to stop.
    const swapper = await sandbox.spawn({
      command: '/bin/sh',
      args: [
        '-c',
        `touch swapping; while [ -e swapping ]; do mv d d.real; ln -s ${outside} d; mv d d.link; mv d.real d; rm d.link; ` +
          `mv d d.real; ln -s ${outside} d; rm d; mv d.real d; done`,
      ],
      cwd: layout.workspace,
      env: { PATH: '/usr/bin:/bin' },
      stdio: 'ignore',
    });
    await waitFor(() => existsSync(join(layout.workspace, 'swapping')), 'the swapping loop to start');
    const seen: string[] = [];
    for (let round = 0; round < 150; round += 1) {
      for (const name of ['f.txt', 'id_ed25519']) {
        const viewed = await editor.execute(
          { command: 'view', path: `d/${name}`, kind: 'FileEditorAction' } as never,
          context(),
        );
        seen.push(JSON.stringify(viewed));
      }
      const created = await editor.execute(
        { command: 'create', path: `d/new-${round}.txt`, file_text: 'x', kind: 'FileEditorAction' } as never,
        context(),
      );
      seen.push(JSON.stringify(created));
      seen.push(
        JSON.stringify(await grep.execute({ pattern: 'secret', path: 'd', kind: 'GrepAction' } as never, context())),
      );
    }
    rmSync(join(layout.workspace, 'swapping'));
    await waitFor(() => swapper.exitCode !== null || swapper.signalCode !== null, 'the swapping loop to stop');
    for (const output of seen) expect(output).not.toContain(SECRET);
    expect(readdirSync(outside)).toEqual(['id_ed25519']);
  });
});
