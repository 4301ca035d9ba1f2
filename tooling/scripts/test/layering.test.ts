// The one-way layering (events ← store ← agent ← apps) is enforced by Biome's
// noRestrictedImports overrides in biome.json. These tests feed Biome a probe file at a path
// inside each package and check that upward imports fail lint and downward ones pass.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const biome = `${root}node_modules/.bin/biome`;

// The probe lives in a dot-folder of the package: inside the package for Biome's overrides,
// outside `src/` so a concurrent build or typecheck never sees it.
function lintProbe(packageDir: string, specifier: string): { ok: boolean; output: string } {
  const dir = join(root, packageDir, `.layer-probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const file = join(dir, 'probe.ts');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `import { thing } from '${specifier}';\n\nexport const probe = thing;\n`);
  try {
    const run = spawnSync(biome, ['lint', '--colors=off', file], { cwd: root, encoding: 'utf8' });
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

const cases: { from: string; allowed: string[]; forbidden: string[] }[] = [
  {
    from: 'packages/events',
    allowed: ['zod'],
    forbidden: ['@x/store', '@x/agent', '@x/server', '@x/cli', '@x/agent/testing'],
  },
  {
    from: 'packages/client/src',
    allowed: ['@x/events'],
    forbidden: ['@x/store', '@x/agent', '@x/server', 'node:crypto', 'ws'],
  },
  {
    from: 'packages/react/src',
    allowed: ['@x/client', '@x/events', 'react'],
    forbidden: ['@x/server', '@x/server/client', '@x/store', 'node:fs'],
  },
  {
    from: 'packages/store',
    allowed: ['@x/events'],
    forbidden: ['@x/agent', '@x/server', '@x/cli', '@x/agent/testing'],
  },
  {
    from: 'packages/agent',
    allowed: ['@x/events', '@x/store', '@x/store/testing', '@x/store/optional-dependency'],
    forbidden: ['@x/server', '@x/cli', '@x/server/client'],
  },
  { from: 'apps/cli', allowed: ['@x/events', '@x/store', '@x/agent', '@x/server'], forbidden: [] },
  { from: 'apps/server', allowed: ['@x/agent', 'fastify'], forbidden: ['@x/viewer', 'preact', 'marked', 'dompurify'] },
  {
    from: 'apps/viewer',
    allowed: ['preact', 'dompurify', '@x/client', '@x/react', '@x/events'],
    forbidden: ['@x/server', '@x/agent', '@x/store', 'node:fs', 'ws'],
  },
];

describe('layering lint', () => {
  for (const { from, allowed, forbidden } of cases) {
    for (const specifier of forbidden) {
      it(`${from} may not import ${specifier}`, () => {
        const result = lintProbe(from, specifier);
        expect(result.ok).toBe(false);
        expect(result.output).toContain('noRestrictedImports');
      });
    }
    for (const specifier of allowed) {
      it(`${from} may import ${specifier}`, () => {
        const result = lintProbe(from, specifier);
        expect(result.output).not.toContain('noRestrictedImports');
      });
    }
  }
});
