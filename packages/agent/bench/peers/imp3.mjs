import { createRequire } from 'node:module';
const t = performance.now(); await import('../../dist/index.js'); const ms = performance.now() - t;
const cache = Object.keys(createRequire(import.meta.url).cache);
console.log(ms.toFixed(0), 'ms; CJS files:', cache.length, cache.filter((k) => /opentelemetry|yaml/.test(k)).length);
