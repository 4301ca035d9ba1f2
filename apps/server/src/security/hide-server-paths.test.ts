import { describe, expect, it } from 'vitest';
import { HIDDEN_PATH, hideServerPaths } from './hide-server-paths.js';

const workspaceRoots = ['/data/workspaces', '/real/workspaces'];

describe('hideServerPaths', () => {
  it('hides every absolute path outside the workspace, wherever git or Node puts it in a message', () => {
    const cases: Array<[string, string]> = [
      [
        "fatal: not a git repository: '/tmp/x-git-snapshots-a/repository-b'",
        `fatal: not a git repository: '${HIDDEN_PATH}'`,
      ],
      ['fatal: --git-dir=/tmp/snap/repository-b: nope', `fatal: --git-dir=${HIDDEN_PATH}: nope`],
      ['error: object file /var/lib/x/objects/ab/cd is empty', `error: object file ${HIDDEN_PATH} is empty`],
      [
        "ENOENT: no such file or directory, mkdtemp '/tmp/a b/x-'",
        `ENOENT: no such file or directory, mkdtemp '${HIDDEN_PATH} b/x-'`,
      ],
      [
        'symlink "/data/workspaces/r/.git/refs" -> "/tmp/s/refs"',
        `symlink "/data/workspaces/r/.git/refs" -> "${HIDDEN_PATH}"`,
      ],
      ['cannot chdir to /etc/secret: No such file', `cannot chdir to ${HIDDEN_PATH}: No such file`],
      ['in file /home/op/.gitconfig.', `in file ${HIDDEN_PATH}.`],
      ['(stored in /srv/objects/ab)', `(stored in ${HIDDEN_PATH})`],
      [
        'paths [/a,/b] and {/c} and </d>',
        `paths [${HIDDEN_PATH},${HIDDEN_PATH}] and {${HIDDEN_PATH}} and <${HIDDEN_PATH}>`,
      ],
      ['/opt/server/start failed', `${HIDDEN_PATH} failed`],
      ['root / only', `root ${HIDDEN_PATH} only`],
      // A path that starts in the workspace but climbs out of it is outside.
      ['reading /data/workspaces/../secrets/key', `reading ${HIDDEN_PATH}`],
      // Beside the root's name is not inside it.
      ['reading /data/workspaces-other/x', `reading ${HIDDEN_PATH}`],
    ];
    for (const [text, shown] of cases) expect(hideServerPaths(text, { workspaceRoots }), text).toBe(shown);
  });

  it('keeps the paths in the workspace, relative paths and URLs: they are what makes a message useful', () => {
    const kept = [
      'error: object file /data/workspaces/repo/.git/objects/ab/cd is empty',
      "fatal: '/real/workspaces/repo' is not a work tree: /data/workspaces.",
      'fatal: bad revision refs/heads/main and a/b/c',
      'fatal: unable to access https://example.invalid/repo.git/: nope',
      'the workspace itself: /data/workspaces',
    ];
    for (const text of kept) expect(hideServerPaths(text, { workspaceRoots }), text).toBe(text);
  });

  it("hides the server's own directories wherever they appear, blanks in their names included", () => {
    const directories = ['/tmp/my snapshots/x-git-snapshots-1', '/tmp/my snapshots/x-git-snapshots-1/nested'];
    const text =
      'git: /tmp/my snapshots/x-git-snapshots-1/repository-2/objects failed; x/tmp/my snapshots/x-git-snapshots-1';
    expect(hideServerPaths(text, { workspaceRoots, directories })).toBe(`git: ${HIDDEN_PATH} failed; x${HIDDEN_PATH}`);
    // The longer of two directories, one the other's name and more, is hidden whole, whatever order they come in.
    const similar = ['/tmp/a b', '/tmp/a bc'];
    expect(hideServerPaths('at /tmp/a bc/x', { workspaceRoots, directories: similar })).toBe(`at ${HIDDEN_PATH}`);
    // A directory that is only `/` (or empty) hides nothing by itself.
    expect(hideServerPaths('a/b c', { workspaceRoots, directories: ['/', ''] })).toBe('a/b c');
    // A directory one letter below the root is one: hidden even where no path starts (after a letter).
    expect(hideServerPaths('x/s/y', { workspaceRoots, directories: ['/s'] })).toBe(`x${HIDDEN_PATH}`);
  });
});
