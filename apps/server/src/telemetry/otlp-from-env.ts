import * as api from '@opentelemetry/api';
import { loadOptionalDependencies } from '../dependencies/internal/load-optional-dependencies.js';
/** What `setupTelemetryFromEnv` registered; `shutdown` flushes and stops the exporters. */
export interface EnvTelemetry {
  /** Where spans are exported (`undefined` when telemetry stayed off). */
  readonly tracesUrl: string | undefined;
  readonly metricsUrl: string | undefined;
  shutdown(): Promise<void>;
}

const OFF: EnvTelemetry = { tracesUrl: undefined, metricsUrl: undefined, shutdown: async () => undefined };

function endpoint(env: NodeJS.ProcessEnv, signal: 'traces' | 'metrics'): string | undefined {
  const specific = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`]?.trim();
  if (specific) return specific;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/${signal}`;
}

/** `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,key2=value2`, values percent-encoded). */
function headers(env: NodeJS.ProcessEnv, signal: 'traces' | 'metrics'): Record<string, string> {
  const text = [env.OTEL_EXPORTER_OTLP_HEADERS, env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_HEADERS`]]
    .filter((part) => part !== undefined && part.trim() !== '')
    .join(',');
  const result: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    try {
      result[decodeURIComponent(pair.slice(0, equals).trim())] = decodeURIComponent(pair.slice(equals + 1).trim());
    } catch {
      // A malformed pair is skipped.
    }
  }
  return result;
}

function exporterOff(value: string | undefined): boolean {
  return value?.split(',').some((name) => name.trim().toLowerCase() === 'none') ?? false;
}

/**
 * Registers the OpenTelemetry SDK (W3C propagation, async context, an OTLP/HTTP JSON exporter for
 * spans and one for metrics) when the standard `OTEL_*` variables name an endpoint:
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` /
 * `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`; `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_SERVICE_NAME`,
 * `OTEL_TRACES_EXPORTER=none`, `OTEL_METRICS_EXPORTER=none` and `OTEL_SDK_DISABLED=true` are honoured.
 * The SDK packages are imported only then, so a server without these variables loads none of them; they are
 * optional peer dependencies, and a missing one is a `MissingDependencyError` naming all that are missing.
 */
export async function setupTelemetryFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<EnvTelemetry> {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return OFF;
  const tracesUrl = exporterOff(env.OTEL_TRACES_EXPORTER) ? undefined : endpoint(env, 'traces');
  const metricsUrl = exporterOff(env.OTEL_METRICS_EXPORTER) ? undefined : endpoint(env, 'metrics');
  if (tracesUrl === undefined && metricsUrl === undefined) return OFF;

  // The SDK packages are optional peers: all that this configuration needs are loaded at once, so that a
  // missing set is reported in one MissingDependencyError with one install command.
  const feature = `OTLP export (${[tracesUrl && 'traces', metricsUrl && 'metrics'].filter(Boolean).join(' and ')})`;
  const sdk = await loadOptionalDependencies(feature, {
    '@opentelemetry/core': () => import('@opentelemetry/core'),
    '@opentelemetry/resources': () => import('@opentelemetry/resources'),
    '@opentelemetry/context-async-hooks': () => import('@opentelemetry/context-async-hooks'),
    '@opentelemetry/sdk-trace-base': () =>
      tracesUrl === undefined ? Promise.resolve(undefined) : import('@opentelemetry/sdk-trace-base'),
    '@opentelemetry/exporter-trace-otlp-http': () =>
      tracesUrl === undefined ? Promise.resolve(undefined) : import('@opentelemetry/exporter-trace-otlp-http'),
    '@opentelemetry/sdk-metrics': () =>
      metricsUrl === undefined ? Promise.resolve(undefined) : import('@opentelemetry/sdk-metrics'),
    '@opentelemetry/exporter-metrics-otlp-http': () =>
      metricsUrl === undefined ? Promise.resolve(undefined) : import('@opentelemetry/exporter-metrics-otlp-http'),
  });
  const core = sdk['@opentelemetry/core'];
  const resource = sdk['@opentelemetry/resources'].resourceFromAttributes({
    'service.name': env.OTEL_SERVICE_NAME?.trim() || 'x-server',
  });
  api.context.setGlobalContextManager(
    new sdk['@opentelemetry/context-async-hooks'].AsyncLocalStorageContextManager().enable(),
  );
  api.propagation.setGlobalPropagator(
    new core.CompositePropagator({
      propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
    }),
  );
  const stops: (() => Promise<void>)[] = [];

  const tracesSdk = sdk['@opentelemetry/sdk-trace-base'];
  const traceExport = sdk['@opentelemetry/exporter-trace-otlp-http'];
  if (tracesUrl !== undefined && tracesSdk !== undefined && traceExport !== undefined) {
    const exporter = new traceExport.OTLPTraceExporter({ url: tracesUrl, headers: headers(env, 'traces') });
    const provider = new tracesSdk.BasicTracerProvider({
      resource,
      spanProcessors: [new tracesSdk.BatchSpanProcessor(exporter)],
    });
    api.trace.setGlobalTracerProvider(provider);
    stops.push(() => provider.shutdown());
  }
  const metricsSdk = sdk['@opentelemetry/sdk-metrics'];
  const metricExport = sdk['@opentelemetry/exporter-metrics-otlp-http'];
  if (metricsUrl !== undefined && metricsSdk !== undefined && metricExport !== undefined) {
    const exporter = new metricExport.OTLPMetricExporter({ url: metricsUrl, headers: headers(env, 'metrics') });
    const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL) > 0 ? Number(env.OTEL_METRIC_EXPORT_INTERVAL) : 60_000;
    const provider = new metricsSdk.MeterProvider({
      resource,
      readers: [new metricsSdk.PeriodicExportingMetricReader({ exporter, exportIntervalMillis: interval })],
    });
    api.metrics.setGlobalMeterProvider(provider);
    stops.push(() => provider.shutdown());
  }

  let stopped: Promise<void> | undefined;
  return {
    tracesUrl,
    metricsUrl,
    shutdown() {
      stopped ??= Promise.allSettled(stops.map((stop) => stop())).then(() => {
        api.trace.disable();
        api.metrics.disable();
        api.propagation.disable();
        api.context.disable();
      });
      return stopped;
    },
  };
}
