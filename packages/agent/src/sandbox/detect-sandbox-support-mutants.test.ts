// The probe against bubblewraps of the test's own (shell scripts standing in for a broken or a working one), and the
// real one: each way of failing says which, with what the binary printed; a working one is available with its
// version, only when the probe's own sandbox (every namespace and mount a command gets, running `true`) succeeds.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSandboxSupport, probeSandboxSupport } from './detect-sandbox-support.js';

const directory = mkdtempSync(join(tmpdir(), 'x-probe-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A stand-in bubblewrap: `version` answers `--version`, `run` any other call (its argv is "$@"). */
function fakeBwrap(name: string, version: string, run: string): string {
  const path = join(directory, name);
  writeFileSync(path, `#!/bin/sh\nif [ "$1" = --version ]; then ${version}; fi\n${run}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('probeSandboxSupport with a bubblewrap of its own', () => {
  it('names a --version that fails, with what it printed', async () => {
    const bwrap = fakeBwrap('no-version', 'echo "unknown option" >&2; exit 3', 'exit 0');
    expect(await probeSandboxSupport({ bwrap })).toEqual({
      available: false,
      reason: `\`${bwrap} --version\` failed: unknown option`,
    });
  });

  it('names namespaces it cannot create, with what it printed', async () => {
    const bwrap = fakeBwrap(
      'no-namespaces',
      'echo "bubblewrap 0.8.0"; exit 0',
      'echo "bwrap: No permissions to create new namespace" >&2; exit 1',
    );
    expect(await probeSandboxSupport({ bwrap })).toEqual({
      available: false,
      reason:
        'bubblewrap cannot create its namespaces here (user namespaces disabled?): bwrap: No permissions to create new namespace',
    });
  });

  it('is available with its version once its sandbox ran `true` with every namespace of a command', async () => {
    // Succeeds only for the probe's real command line: a new network namespace, and `true` after `--`.
    const bwrap = fakeBwrap(
      'works',
      'echo "bubblewrap 0.9.1"; exit 0',
      'case " $* " in *" --unshare-net "*" --unshare-pid "*|*" --unshare-pid "*" --unshare-net "*) ;; *) exit 1;; esac\n' +
        'for last; do :; done; [ "$last" = true ] || exit 1; exit 0',
    );
    expect(await probeSandboxSupport({ bwrap })).toEqual({ available: true, bwrap, version: '0.9.1' });
  });
});

describe('probeSandboxSupport with the real bubblewrap', () => {
  it('is available here, and detectSandboxSupport answers the same, once per process', async () => {
    const probed = await probeSandboxSupport({ bwrap: '/usr/bin/bwrap' });
    expect(probed).toEqual({ available: true, bwrap: '/usr/bin/bwrap', version: expect.stringMatching(/^\d+\.\d+/) });
    const detected = detectSandboxSupport();
    expect(detectSandboxSupport()).toBe(detected);
    expect(await detected).toEqual(probed);
  });
});
