import { builtinModules } from 'node:module';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Records every import of a Node built-in (esbuild would also refuse them, but this names the importer). */
function refuseNodeBuiltins(found: string[]): Plugin {
  return {
    name: 'refuse-node-builtins',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (args.path.startsWith('node:') || BUILTINS.has(args.path)) {
          found.push(`${args.importer} imports ${args.path}`);
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
}

describe('@x/events in a browser bundle', () => {
  it('bundles for the browser with no Node built-in anywhere in its import graph', async () => {
    const found: string[] = [];
    const result = await build({
      stdin: {
        contents: "export * from './src/index.ts'; export * as testing from './src/testing/index.ts';",
        resolveDir: new URL('..', import.meta.url).pathname,
        loader: 'ts',
      },
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      // fast-check is an optional peer of ./testing only; it is not what this test is about.
      external: ['fast-check'],
      plugins: [refuseNodeBuiltins(found)],
      logLevel: 'silent',
    });
    expect(found).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]?.text).toContain('randomUUID');
  });
});
