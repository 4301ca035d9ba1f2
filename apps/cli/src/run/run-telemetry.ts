import type { EnvTelemetry } from '@x/server';
import { type CliContext, logVerbose } from '../context.js';

/** The service name of `x run`'s spans and metrics when `OTEL_SERVICE_NAME` does not set one. */
export const RUN_SERVICE_NAME = 'x-cli';

/** True when a variable names an OTLP endpoint (the only case in which the SDK is worth loading). */
function endpointConfigured(env: NodeJS.ProcessEnv): boolean {
  return [
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  ].some((name) => (env[name]?.trim() ?? '') !== '');
}

/**
 * OTLP export for `x run`, from the same standard `OTEL_*` variables as `x serve` (`setupTelemetryFromEnv` of
 * @x/server): the run's spans and GenAI metrics go to the collector; the caller flushes with `shutdown()` before
 * exiting. Without an endpoint nothing is loaded and `undefined` is returned.
 */
export async function startRunTelemetry(context: CliContext): Promise<EnvTelemetry | undefined> {
  const { env } = context;
  if (!endpointConfigured(env)) return undefined;
  const { setupTelemetryFromEnv } = await import('@x/server');
  // The exporters read the process's OTEL_* variables themselves (endpoint, headers, protocol, timeout).
  const telemetry = await setupTelemetryFromEnv({ defaultServiceName: RUN_SERVICE_NAME });
  if (telemetry.tracesUrl === undefined && telemetry.metricsUrl === undefined) return undefined;
  if (telemetry.tracesUrl !== undefined) logVerbose(context, `exporting spans to ${telemetry.tracesUrl}`);
  if (telemetry.metricsUrl !== undefined) logVerbose(context, `exporting metrics to ${telemetry.metricsUrl}`);
  return telemetry;
}
