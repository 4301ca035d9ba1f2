// The Vercel AI SDK the peer benchmark runs against, pinned, installed from the npm registry into
// `.tools/peer-ai-<version>/` at the repository root (gitignored, reused), as node-lines.mjs installs Node lines.
// Not a dependency of any workspace package: published packages gain nothing, and `ai` 7 declares
// `engines.node >= 22`, which the repository's `engine-strict=true` refuses on the Node 20 it also runs on
// (it runs there: the benchmark checks every step). Hence `--engine-strict=false` for this install only.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The latest `ai` when this benchmark was written; the same `zod` as the workspace. */
export const AI_VERSION = '7.0.173';
export const ZOD_VERSION = '4.6.7';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/** The directory holding `ai-child.mjs` next to its own `node_modules/ai`, installing it first when missing. */
export function ensureAiSdk(): string {
  const prefix = join(root, '.tools', `peer-ai-${AI_VERSION}`);
  if (!existsSync(join(prefix, 'node_modules', 'ai', 'package.json'))) {
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, 'package.json'), '{"private":true,"type":"module"}\n');
    const install = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--engine-strict=false',
        `ai@${AI_VERSION}`,
        `zod@${ZOD_VERSION}`,
      ],
      { encoding: 'utf8' },
    );
    if (install.status !== 0 || !existsSync(join(prefix, 'node_modules', 'ai', 'package.json'))) {
      throw new Error(`Could not install ai@${AI_VERSION} from the npm registry:\n${install.stderr}`);
    }
  }
  copyFileSync(fileURLToPath(new URL('ai-child.mjs', import.meta.url)), join(prefix, 'ai-child.mjs'));
  return prefix;
}
