#!/usr/bin/env node
// The `x` bin's entry: turns on Node's compile cache (Node 22.1+, see compile-cache.ts) before the CLI and the
// packages behind it (@x/agent, @x/store, @x/events, zod) are imported, so they can come from the cache. Keep
// this file to Node built-ins and compile-cache.js: anything imported statically here is compiled cold.
import { enableCliCompileCache } from './compile-cache.js';

const cache = enableCliCompileCache();
// The only trace of a cache that could not be used: one line, with --verbose (parsed later, by the CLI).
if (cache.status === 'failed' && verboseRequested(process.argv.slice(2))) {
  process.stderr.write(`x: compile cache not used: ${cache.message ?? 'unknown reason'}\n`);
}

function verboseRequested(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--verbose');
}

await import('./main.js');
