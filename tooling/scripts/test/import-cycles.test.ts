// Each package's module graph (the relative imports between its `src/` files) stays one-way: a
// circle means neither module can be understood, tested or moved without the other, and at
// runtime one of them sees the other half-initialised.
//
// Type-only imports count. They are erased from the emitted JavaScript, so they cannot break
// module initialisation, but they tie the designs together just the same: a module that names
// another's types depends on it, and a circle through `import type` is the same tangle with a
// keyword in front. (With `verbatimModuleSyntax`, `import { type X }` is even kept as a
// side-effect import.) Dynamic `import()` counts too: a lazy edge is still an edge.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findCircles, readModuleImports } from './support/import-graph.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The circles that are there on purpose, by package folder: each decides whether a circle's files are allowed. */
const allowedCircles: Record<string, { why: string; allows: (files: readonly string[]) => boolean }[]> = {
  'packages/agent': [
    {
      why: 'the conversation folder is one unit split across files; its modules may refer to each other',
      allows: (files) => files.every((file) => file.startsWith('src/conversation/')),
    },
  ],
  'packages/store-postgres': [
    {
      why: 'opening a database runs its migrations, and a migration is handed the database it runs on',
      allows: (files) =>
        files.length === 2 && files.includes('src/database.ts') && files.includes('src/migrations/migrate.ts'),
    },
  ],
};

function workspacePackages(): string[] {
  return ['packages', 'apps', 'tooling'].flatMap((group) =>
    readdirSync(join(root, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${group}/${entry.name}`),
  );
}

function unexpectedCircles(packageDir: string, allowances: (typeof allowedCircles)[string] = []): string[] {
  return findCircles(readModuleImports(join(root, packageDir)))
    .filter(({ files }) => !allowances.some(({ allows }) => allows(files)))
    .map(({ circle }) => `${packageDir}: ${circle.join(' → ')}`);
}

describe('import circles', () => {
  for (const packageDir of workspacePackages()) {
    it(`${packageDir} has no import circle`, () => {
      expect(unexpectedCircles(packageDir, allowedCircles[packageDir])).toEqual([]);
    });
  }
});

describe('the import-circle finder', () => {
  const fixtures = mkdtempSync(join(tmpdir(), 'x-import-circles-'));
  afterAll(() => rmSync(fixtures, { recursive: true, force: true, maxRetries: 5 }));

  function fixturePackage(files: Record<string, string>): string {
    const dir = mkdtempSync(join(fixtures, 'package-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  it('names every file of a circle, including one closed by a type-only import or a folder index', () => {
    const dir = fixturePackage({
      'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'src/b.ts': "export { c as b } from './nested/index.js';\n",
      'src/nested/index.ts': "export { c } from './c.js';\n",
      'src/nested/c.ts': "import type { A } from '../a.js';\nexport const c = 1;\nexport type C = A;\n",
      'src/d.ts': "import { a } from './a.js';\nexport const d = a;\n",
    });
    const circles = findCircles(readModuleImports(dir));
    expect(circles.map(({ circle }) => circle.join(' → '))).toEqual([
      'src/a.ts → src/b.ts → src/nested/index.ts → src/nested/c.ts → src/a.ts',
    ]);
  });

  it('finds a circle made by a dynamic import and ignores imports in comments and of other packages', () => {
    const dir = fixturePackage({
      'src/a.ts':
        "// import { b } from './b.js';\nimport { z } from 'zod';\nexport const load = () => import('./b.js');\nexport const a = z;\n",
      'src/b.ts': "import { a } from './a.js';\nexport const b = a;\n",
      'src/c.ts': "// import { d } from './d.js';\nexport const c = 1;\n",
      'src/d.ts': "import { c } from './c.js';\nexport const d = c;\n",
    });
    expect(findCircles(readModuleImports(dir)).map(({ files }) => files)).toEqual([['src/a.ts', 'src/b.ts']]);
  });

  it('finds a file importing itself', () => {
    const dir = fixturePackage({ 'src/a.ts': "export * as self from './a.js';\n" });
    expect(findCircles(readModuleImports(dir)).map(({ circle }) => circle)).toEqual([['src/a.ts', 'src/a.ts']]);
  });

  it('keeps an allowance to the circle it names: another circle in the same package still fails', () => {
    const dir = fixturePackage({
      'src/database.ts': "import { migrate } from './migrations/migrate.js';\nexport const database = migrate;\n",
      'src/migrations/migrate.ts':
        "import type { Database } from '../database.js';\nexport const migrate = 1;\nexport type M = Database;\n",
      'src/pool.ts':
        "import { database } from './database.js';\nimport { ready } from './ready.js';\nexport const pool = [database, ready];\n",
      'src/ready.ts': "import { pool } from './pool.js';\nexport const ready = () => pool;\n",
    });
    const allowance = allowedCircles['packages/store-postgres'] ?? [];
    const remaining = findCircles(readModuleImports(dir)).filter(
      ({ files }) => !allowance.some(({ allows }) => allows(files)),
    );
    expect(remaining.map(({ circle }) => circle.join(' → '))).toEqual(['src/pool.ts → src/ready.ts → src/pool.ts']);
  });
});
