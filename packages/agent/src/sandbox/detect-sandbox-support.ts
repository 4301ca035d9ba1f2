import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { buildBwrapArgs } from './bwrap-args.js';
import { type EtcScanOptions, type HostLayout, readHostLayout } from './internal/host-layout.js';
import { SandboxHostScanError } from './sandbox-host-scan-error.js';

/** Whether this host can run the bubblewrap sandbox, and if not, why. */
export type SandboxSupport = { available: true; bwrap: string; version: string } | { available: false; reason: string };

let cached: Promise<SandboxSupport> | undefined;

/**
 * Where bubblewrap is looked for, and nowhere else: the system's own directories, which no sandbox can write.
 * Never `$PATH`: it may name a directory a sandboxed command could write (a project's `node_modules/.bin`, which
 * `npm run` and `pnpm exec` put first, `~/.local/bin`, `.`), and a `bwrap` planted there would be run in place of
 * the sandbox, with the server's authority. A bubblewrap elsewhere is given explicitly (`probeSandboxSupport`).
 */
export const BWRAP_DIRECTORIES: readonly string[] = Object.freeze(['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin']);

function findInSystemDirectories(name: string): string | undefined {
  for (const directory of BWRAP_DIRECTORIES) {
    const candidate = join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

async function run(file: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  // Loaded on first use, not at import: node:child_process (and net, dgram and more behind it) is ~3 ms of a cold import of the package, and most processes that import it never start one.
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(file, args, { env: { PATH: '/usr/bin:/bin' }, cwd: '/', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ ok: error === null, output: `${stdout}${stderr}`.trim() || (error?.message ?? '') });
    });
  });
}

/**
 * The probe itself, uncached; `bwrap` names the binary to try (a test points it at a missing or broken one), `etcScan`
 * the scan of /etc (a test points it at a directory of its own). Not exported from the package:
 * `detectSandboxSupport` is the face.
 */
export async function probeSandboxSupport(
  options: { bwrap?: string | undefined; platform?: NodeJS.Platform; etcScan?: EtcScanOptions } = {},
): Promise<SandboxSupport> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') return { available: false, reason: `bubblewrap needs Linux, and this is ${platform}` };
  const bwrap = 'bwrap' in options ? options.bwrap : findInSystemDirectories('bwrap');
  if (bwrap === undefined)
    return {
      available: false,
      reason: `\`bwrap\` (bubblewrap) is not installed in ${BWRAP_DIRECTORIES.join(', ')} ($PATH is not searched)`,
    };
  // The real thing, with every namespace and mount a command gets: anything less could pass here and fail later.
  // Run beside `--version` (each is a process start, paid once per process; a conversation waits for both).
  let layout: HostLayout;
  try {
    layout = readHostLayout(options.etcScan === undefined ? {} : { etcScan: options.etcScan });
  } catch (error) {
    // An /etc too large to scan whole: the private files it may hold cannot all be hidden, so no sandbox.
    if (SandboxHostScanError.isInstance(error)) return { available: false, reason: error.message };
    throw error;
  }
  const args = buildBwrapArgs({
    workspace: '/tmp',
    cwd: '/',
    network: 'none',
    writablePaths: [],
    readablePaths: [],
    ...layout,
    argv: ['true'],
  });
  const [version, result] = await Promise.all([run(bwrap, ['--version']), run(bwrap, args)]);
  if (!version.ok) return { available: false, reason: `\`${bwrap} --version\` failed: ${version.output}` };
  if (!result.ok)
    return {
      available: false,
      reason: `bubblewrap cannot create its namespaces here (user namespaces disabled?): ${result.output}`,
    };
  return { available: true, bwrap, version: version.output.replace(/^bubblewrap\s+/, '') };
}

/** Probes once per process by running `bwrap … true` with the sandbox's real namespaces and mounts. */
export function detectSandboxSupport(): Promise<SandboxSupport> {
  cached ??= probeSandboxSupport();
  return cached;
}
