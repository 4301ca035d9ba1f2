import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { buildBwrapArgs } from './bwrap-args.js';
import { readHostLayout } from './internal/host-layout.js';

/** Whether this host can run the bubblewrap sandbox, and if not, why. */
export type SandboxSupport = { available: true; bwrap: string; version: string } | { available: false; reason: string };

let cached: Promise<SandboxSupport> | undefined;

function findOnPath(name: string): string | undefined {
  const directories = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/bin', '/usr/local/bin'];
  for (const directory of directories) {
    if (directory === '') continue;
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
 * The probe itself, uncached; `bwrap` names the binary to try (a test points it at a missing or broken one).
 * Not exported from the package: `detectSandboxSupport` is the face.
 */
export async function probeSandboxSupport(
  options: { bwrap?: string | undefined; platform?: NodeJS.Platform } = {},
): Promise<SandboxSupport> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') return { available: false, reason: `bubblewrap needs Linux, and this is ${platform}` };
  const bwrap = 'bwrap' in options ? options.bwrap : findOnPath('bwrap');
  if (bwrap === undefined) return { available: false, reason: '`bwrap` (bubblewrap) is not installed' };
  // The real thing, with every namespace and mount a command gets: anything less could pass here and fail later.
  // Run beside `--version` (each is a process start, paid once per process; a conversation waits for both).
  const layout = readHostLayout();
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
