/**
 * The optional peer dependencies of @x/server that it imports itself (the OpenTelemetry SDK and OTLP exporters,
 * loaded only when `OTEL_*` variables ask for export; the MCP SDK, loaded by the first request to the MCP face) and the ranges it supports. A test keeps this list equal to
 * `peerDependencies` in package.json (which also passes on the optional peers of @x/agent, @x/store and
 * @x/store-postgres, so that pnpm and Yarn link them for those packages when a server's project installs them).
 */
export const optionalDependencies = {
  '@opentelemetry/context-async-hooks': '^2.12.0',
  '@opentelemetry/core': '^2.12.0',
  '@opentelemetry/resources': '^2.12.0',
  '@opentelemetry/sdk-trace-base': '^2.12.0',
  '@opentelemetry/sdk-metrics': '^2.12.0',
  '@opentelemetry/exporter-trace-otlp-http': '^0.223.0',
  '@opentelemetry/exporter-metrics-otlp-http': '^0.223.0',
  '@opentelemetry/exporter-trace-otlp-proto': '^0.223.0',
  '@opentelemetry/exporter-metrics-otlp-proto': '^0.223.0',
  '@modelcontextprotocol/sdk': '^1.32.0',
} as const;

export type OptionalDependency = keyof typeof optionalDependencies;
