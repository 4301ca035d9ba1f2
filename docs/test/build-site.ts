import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const docsDir = fileURLToPath(new URL('..', import.meta.url));
const typedocBin = join(dirname(createRequire(import.meta.url).resolve('typedoc/package.json')), 'bin', 'typedoc');

export interface SiteBuild {
  code: number | null;
  /** stdout and stderr together: TypeDoc's warnings name the file and the link. */
  output: string;
}

/**
 * Builds the site as `pnpm docs` does (docs/typedoc.json: warnings are errors) into `out`, with `extraDocuments`
 * (absolute paths inside docs/: TypeDoc 0.28 globs documents from the folder they all share, and fails when
 * that is `/`) added to the guides. The extra documents go through a config that extends the real one, so
 * the test exercises exactly the site's settings.
 */
export async function buildSite(out: string, extraDocuments: string[] = []): Promise<SiteBuild> {
  let options = join(docsDir, 'typedoc.json');
  if (extraDocuments.length > 0) {
    // TypeDoc resolves a config's paths against that config's folder (and its globbing fails on absolute ones).
    const base = JSON.parse(await readFile(options, 'utf8')) as { projectDocuments: string[] };
    const folder = dirname(extraDocuments[0] as string);
    options = join(folder, `typedoc-${basename(out)}.json`);
    const documents = [...base.projectDocuments.map((path) => join(docsDir, path)), ...extraDocuments];
    await writeFile(
      options,
      JSON.stringify({
        extends: [relative(folder, join(docsDir, 'typedoc.json'))],
        projectDocuments: documents.map((path) => relative(folder, path)),
      }),
    );
  }
  const child = spawn(process.execPath, [typedocBin, '--options', options, '--out', out], {
    cwd: docsDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { code, output };
}
