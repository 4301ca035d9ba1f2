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
        // Quoted, a path runs to its closing quote: the blank in it does not leave its end in the message.
        `ENOENT: no such file or directory, mkdtemp '${HIDDEN_PATH}'`,
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

  it('hides a known directory whole: a path with blanks in it, at the end, the bare name, never a longer name', () => {
    const directories = ['/srv/x data', '/data'];
    const cases: Array<[string, string]> = [
      // A quoted path inside the directory, a blank after the directory's name: hidden up to its closing quote.
      ["open '/srv/x data/conversations/my conv/base_state.json' failed", `open '${HIDDEN_PATH}' failed`],
      ['rename "/data/a b/c" -> "/data/d"', `rename "${HIDDEN_PATH}" -> "${HIDDEN_PATH}"`],
      // At the end of the message, and the directory itself without a trailing slash.
      ['could not read /srv/x data/meta.json', `could not read ${HIDDEN_PATH}`],
      ['no space left in /srv/x data', `no space left in ${HIDDEN_PATH}`],
      ['no space left in /srv/x data.', `no space left in ${HIDDEN_PATH}.`],
      ['/data: permission denied', `${HIDDEN_PATH}: permission denied`],
    ];
    for (const [text, shown] of cases) {
      expect(hideServerPaths(text, { workspaceRoots, directories }), text).toBe(shown);
    }
  });

  it('does not take a longer name for a known directory: /data2 is not /data and an 2', () => {
    const roots = ['/data2', '/data.old'];
    for (const text of ["open '/data2/a b'", 'open /data2/a', 'open /data.old/x', 'open /data-x']) {
      const shown = hideServerPaths(text, { workspaceRoots: roots, directories: ['/data'] });
      expect(shown, text).not.toContain(`${HIDDEN_PATH}2`);
      expect(shown, text).not.toContain(`${HIDDEN_PATH}.old`);
      expect(shown, text).not.toContain(`${HIDDEN_PATH}-x`);
    }
    expect(hideServerPaths("open '/data2/a b'", { workspaceRoots: roots, directories: ['/data'] })).toBe(
      "open '/data2/a b'",
    );
  });

  it('keeps a path of the workspace that lies in a known directory (the default workspace is in the data dir)', () => {
    const text = "open '/srv/x data/workspaces/a b.txt' beside /srv/x data/conversations/c";
    expect(hideServerPaths(text, { workspaceRoots: ['/srv/x data/workspaces'], directories: ['/srv/x data'] })).toBe(
      `open '/srv/x data/workspaces/a b.txt' beside ${HIDDEN_PATH}`,
    );
  });
});
