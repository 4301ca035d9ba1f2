import { createRequire } from 'node:module';

type OtelApi = typeof import('@opentelemetry/api');

/**
 * Where the OpenTelemetry API (every copy of major version 1, whichever build) keeps what is registered
 * with it: `trace`, `context`, `metrics`, `propagation`, `diag`. Its own global, read here without the API.
 */
const GLOBAL_KEY = Symbol.for('opentelemetry.js.api.1');

/** Whether anything registered a global of this kind (a TracerProvider, a context manager, a MeterProvider). */
export function otelRegistered(kind: 'trace' | 'context' | 'metrics'): boolean {
  const registry = (globalThis as Record<symbol, Record<string, unknown> | undefined>)[GLOBAL_KEY];
  return registry?.[kind] !== undefined;
}

let api: OtelApi | undefined;

/**
 * The OpenTelemetry API, loaded on first use: it is ~50 CommonJS files, and with nothing registered
 * (`otelRegistered`) x never needs it. `require` resolves the same file a static import does (the package's
 * `default` export condition), so this is the same module instance the rest of the process sees.
 */
export function otel(): OtelApi {
  api ??= createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
  return api;
}
