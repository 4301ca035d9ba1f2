import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers.js';
import { git, initRepository, query, useGitServer, write } from './git-fixture.js';

// A repository in the workspace is the agent's: its configuration and attributes can name programs git would run
// (fsmonitor, hooks, filters, diff drivers). The git routes must run none of them. Each program appends its name
// to a marker file in the workspace root, which the sandbox lets it write: only the hardening keeps it empty.
const servers = useGitServer();

const PROGRAMS = [
  'fsmonitor',
  'clean',
  'smudge',
  'process',
  'included',
  'equals',
  'textconv',
  'command',
  'external',
  'hook',
];

async function writePrograms(root: string, marker: string): Promise<string> {
  const scripts = join(root, 'scripts');
  await mkdir(scripts, { recursive: true });
  for (const name of PROGRAMS) {
    const script = join(scripts, `${name}.sh`);
    await writeFile(script, `#!/bin/sh\necho ${name} >> '${marker}'\ncat\n`);
    await chmod(script, 0o755);
  }
  return scripts;
}

/**
 * A clone (so the auto-detected base checks the tracked tree with `git status`) whose configuration names every
 * program, directly, through an include and under a driver name holding `=`; its work tree has a modified file
 * of each filtered kind, and an untracked one.
 */
async function hostileRepository(root: string, scripts: string): Promise<string> {
  const upstream = join(root, 'upstream');
  await initRepository(upstream, { 'a.txt': 'a\n', 'b.md': 'b\n', 'c.ini': 'c\n', 'd.weird': 'd\n' });
  const repo = join(root, 'hostile');
  await git(root, 'clone', '-q', upstream, repo);
  const program = (name: string): string => join(scripts, `${name}.sh`);
  const settings: Array<[string, string]> = [
    ['core.fsmonitor', program('fsmonitor')],
    ['filter.evil.clean', program('clean')],
    ['filter.evil.smudge', program('smudge')],
    ['filter.evil.required', 'true'],
    ['filter.proc.process', program('process')],
    ['filter.a=b.clean', program('equals')],
    ['diff.evil.textconv', program('textconv')],
    ['diff.evil.command', program('command')],
    ['diff.external', program('external')],
    ['core.hooksPath', join(repo, 'hooks')],
    ['include.path', join(repo, 'extra.cfg')],
  ];
  for (const [key, value] of settings) await git(repo, 'config', key, value);
  await writeFile(join(repo, 'extra.cfg'), `[filter "inc"]\n\tclean = ${program('included')}\n`);
  await write(repo, 'hooks/post-index-change', await readFile(program('hook'), 'utf8'));
  await chmod(join(repo, 'hooks/post-index-change'), 0o755);
  await writeFile(
    join(repo, '.gitattributes'),
    '*.txt filter=evil diff=evil\n*.md filter=proc diff=evil\n*.ini filter=inc\n*.weird filter=a=b\n',
  );
  for (const name of ['a.txt', 'b.md', 'c.ini', 'd.weird']) await write(repo, name, `${name} changed\n`);
  await write(repo, 'new.txt', 'untracked\n');
  return repo;
}

/** Calls every git route, with and without a ref, and expects each to answer 200. */
async function callEveryRoute(server: TestServer, repo: string): Promise<void> {
  const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
  const file = join(repo, 'a.txt');
  const calls = [
    query('/api/git/changes', { path: repo }),
    query('/api/git/changes', { path: repo, ref: 'HEAD' }),
    query('/api/git/diff', { path: file }),
    query('/api/git/diff', { path: file, ref: 'HEAD' }),
    query('/api/git/diff', { path: join(repo, 'b.md'), ref: 'HEAD' }),
    query('/api/git/diff', { path: file, commit: head }),
    query('/api/git/commits', { path: repo }),
    query(`/api/git/commits/${head}/changes`, { path: repo }),
  ];
  for (const call of calls) {
    const answer = await server.call('GET', call);
    expect({ call, status: answer.status }).toEqual({ call, status: 200 });
  }
}

describe('a repository whose configuration names programs', () => {
  it('has none of them run by any git route', async () => {
    const { server, root } = await servers.start();
    const marker = join(root, 'ran.txt');
    const repo = await hostileRepository(root, await writePrograms(root, marker));

    await callEveryRoute(server, repo);
    const changes = await server.call('GET', query('/api/git/changes', { path: repo, ref: 'HEAD' }));

    expect(await readFile(marker, 'utf8').catch(() => 'nothing ran')).toBe('nothing ran');
    // The files were still read as they are (no filter in between), and the attributes file itself is listed.
    expect(changes.json).toEqual(
      expect.arrayContaining([
        { status: 'UPDATED', path: 'a.txt' },
        { status: 'UPDATED', path: 'd.weird' },
        { status: 'ADDED', path: 'new.txt' },
      ]),
    );
  });
});

describe('a repository with a dirty submodule whose own configuration names a filter', () => {
  it('never has git look into the submodule, where that filter would run', async () => {
    const { server, root } = await servers.start();
    const marker = join(root, 'ran.txt');
    const scripts = await writePrograms(root, marker);
    const library = join(root, 'library');
    await initRepository(library, { 'lib.txt': 'lib\n' });
    const repo = join(root, 'super');
    await initRepository(repo, { 'top.txt': 'top\n' });
    // Two levels down: a repository right below the path is listed by its own git (as the reference does).
    await git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', library, 'deps/sub');
    await git(repo, 'commit', '-q', '-m', 'add submodule');
    const submodule = join(repo, 'deps/sub');
    await git(submodule, 'config', 'filter.evil.clean', join(scripts, 'clean.sh'));
    await writeFile(join(submodule, '.gitattributes'), '* filter=evil\n');
    // The same size: only its content (through the filter) tells whether it changed.
    await write(submodule, 'lib.txt', 'LIB\n');

    const changes = await server.call('GET', query('/api/git/changes', { path: repo, ref: 'HEAD' }));

    expect(await readFile(marker, 'utf8').catch(() => 'nothing ran')).toBe('nothing ran');
    expect(changes).toEqual({ status: 200, json: [] });
  });
});
