// What the SDK-majors tests share: @x/agent packed as a user gets it, and installed by npm with a vendor SDK's whole
// peer range on one Node line, so npm (not the repository's lockfile) picks the newest major that Node runs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureNode } from '../../node-lines.mjs';
import { root, sh } from './consumer-project.js';

const npmCli = join(spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim(), 'npm', 'bin', 'npm-cli.js');

/** The range @x/agent's manifest gives the optional peer `sdk`. */
export function agentPeerRange(sdk: string): string {
  const manifest = JSON.parse(readFileSync(join(root, 'packages/agent/package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
  };
  const range = manifest.peerDependencies[sdk];
  if (range === undefined) throw new Error(`@x/agent has no peer dependency ${sdk}`);
  return range;
}

/** A new directory under the system's temporary one holding tarballs of @x/events, @x/store and @x/agent. */
export function packAgent(prefix: string): { work: string; tarballs: Record<string, string> } {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const packs = join(work, 'packs');
  mkdirSync(packs);
  const tarballs: Record<string, string> = {};
  for (const [name, dir] of [
    ['@x/events', 'packages/events'],
    ['@x/store', 'packages/store'],
    ['@x/agent', 'packages/agent'],
  ] as const) {
    const before = new Set(readdirSync(packs));
    sh('pnpm', ['pack', '--pack-destination', packs], join(root, dir));
    const file = readdirSync(packs).find((entry) => !before.has(entry));
    if (file === undefined) throw new Error(`pnpm pack wrote no tarball for ${name}`);
    tarballs[name] = `file:${join(packs, file)}`;
  }
  return { work, tarballs };
}

/**
 * A project in `<work>/node-<line>` depending on the packed packages, zod and `sdk` at its peer range, installed by
 * npm run on Node `line` (engine-strict, as a user's install would refuse a release that declares a newer Node),
 * with `script` written beside it as `exchange.mjs`. Returns the project's directory and the Node that runs it.
 */
export function installOnNodeLine(options: {
  work: string;
  tarballs: Record<string, string>;
  line: string;
  sdk: string;
  script: string;
}): { dir: string; node: string } {
  const { work, tarballs, line, sdk, script } = options;
  const node = line === process.versions.node.split('.')[0] ? process.execPath : ensureNode(line);
  const dir = join(work, `node-${line}`);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: `sdk-majors-node-${line}`,
      private: true,
      type: 'module',
      dependencies: { ...tarballs, zod: '^4', [sdk]: agentPeerRange(sdk) },
    }),
  );
  sh(node, [npmCli, 'install', '--engine-strict', '--no-audit', '--no-fund'], dir);
  writeFileSync(join(dir, 'exchange.mjs'), script);
  return { dir, node };
}

/** The major version of `sdk` npm installed into `dir`. */
export function installedMajor(dir: string, sdk: string): string {
  const { version } = JSON.parse(readFileSync(join(dir, 'node_modules', sdk, 'package.json'), 'utf8')) as {
    version: string;
  };
  return version.split('.')[0] as string;
}
