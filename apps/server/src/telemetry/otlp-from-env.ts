import * as api from '@opentelemetry/api';
import { loadOptionalDependencies } from '../dependencies/internal/load-optional-dependencies.js';
import { UnsupportedOtlpProtocolError } from './unsupported-otlp-protocol-error.js';

/** What `setupTelemetryFromEnv` registered; `shutdown` flushes and stops the exporters. */
export interface EnvTelemetry {
  /** Where spans are exported, for display (`undefined` when telemetry stayed off). */
  readonly tracesUrl: string | undefined;
  readonly metricsUrl: string | undefined;
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** `service.name` when `OTEL_SERVICE_NAME` sets none. Default `x-server`. */
  defaultServiceName?: string;
}

type Signal = 'traces' | 'metrics';
type Protocol = 'http/protobuf' | 'http/json';

const OFF: EnvTelemetry = { tracesUrl: undefined, metricsUrl: undefined, shutdown: async () => undefined };

const value = (name: string): string | undefined => {
  const text = process.env[name]?.trim();
  return text === undefined || text === '' ? undefined : text;
};

/** Where the exporter will send `signal` (it reads the same variables itself; this is only for display). */
function endpointOf(signal: Signal): string | undefined {
  const specific = value(`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`);
  if (specific !== undefined) return specific;
  const base = value('OTEL_EXPORTER_OTLP_ENDPOINT');
  return base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/${signal}`;
}

/**
 * The protocol of `signal`: `OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else
 * `http/json` (the specification's default is `http/protobuf`; JSON stays the default here because earlier
 * versions exported JSON and collectors set up for them keep working).
 */
function protocolOf(signal: Signal): Protocol {
  for (const variable of [`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`, 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = value(variable);
    if (protocol === undefined) continue;
    if (protocol === 'http/protobuf' || protocol === 'http/json') return protocol;
    throw new UnsupportedOtlpProtocolError(variable, protocol);
  }
  return 'http/json';
}

function exporterOff(text: string | undefined): boolean {
  return text?.split(',').some((name) => name.trim().toLowerCase() === 'none') ?? false;
}

/**
 * Registers the OpenTelemetry SDK (W3C propagation, async context, an OTLP exporter for spans and one for
 * metrics) when the standard `OTEL_*` variables of the process name an endpoint. The exporters read their
 * variables themselves, as OpenTelemetry defines them (`OTEL_EXPORTER_OTLP_ENDPOINT` and the per-signal
 * `…_TRACES_ENDPOINT` / `…_METRICS_ENDPOINT`, `…_HEADERS`, `…_TIMEOUT`, `…_COMPRESSION`, certificates);
 * this function chooses the exporter by `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf` or `http/json`; grpc
 * is refused with `UnsupportedOtlpProtocolError`) and honours `OTEL_SERVICE_NAME`, `OTEL_TRACES_EXPORTER=none`,
 * `OTEL_METRICS_EXPORTER=none`, `OTEL_METRIC_EXPORT_INTERVAL` and `OTEL_SDK_DISABLED=true`. The SDK packages
 * are imported only then, so a server without these variables loads none of them; they are optional peer
 * dependencies, and the missing ones are reported together in one `MissingDependencyError`.
 */
export async function setupTelemetryFromEnv(options: TelemetryOptions = {}): Promise<EnvTelemetry> {
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return OFF;
  const tracesUrl = exporterOff(value('OTEL_TRACES_EXPORTER')) ? undefined : endpointOf('traces');
  const metricsUrl = exporterOff(value('OTEL_METRICS_EXPORTER')) ? undefined : endpointOf('metrics');
  if (tracesUrl === undefined && metricsUrl === undefined) return OFF;
  // Refused before anything is registered.
  const protocols = {
    traces: tracesUrl === undefined ? undefined : protocolOf('traces'),
    metrics: metricsUrl === undefined ? undefined : protocolOf('metrics'),
  };

  // The SDK packages are optional peers: all that this configuration needs are loaded at once, so that a
  // missing set is reported in one MissingDependencyError with one install command.
  const feature = `OTLP export (${[tracesUrl && 'traces', metricsUrl && 'metrics'].filter(Boolean).join(' and ')})`;
  const none = () => Promise.resolve(undefined);
  const sdk = await loadOptionalDependencies(feature, {
    '@opentelemetry/core': () => import('@opentelemetry/core'),
    '@opentelemetry/resources': () => import('@opentelemetry/resources'),
    '@opentelemetry/context-async-hooks': () => import('@opentelemetry/context-async-hooks'),
    '@opentelemetry/sdk-trace-base': () =>
      protocols.traces === undefined ? none() : import('@opentelemetry/sdk-trace-base'),
    '@opentelemetry/exporter-trace-otlp-http': () =>
      protocols.traces === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : none(),
    '@opentelemetry/exporter-trace-otlp-proto': () =>
      protocols.traces === 'http/protobuf' ? import('@opentelemetry/exporter-trace-otlp-proto') : none(),
    '@opentelemetry/sdk-metrics': () =>
      protocols.metrics === undefined ? none() : import('@opentelemetry/sdk-metrics'),
    '@opentelemetry/exporter-metrics-otlp-http': () =>
      protocols.metrics === 'http/json' ? import('@opentelemetry/exporter-metrics-otlp-http') : none(),
    '@opentelemetry/exporter-metrics-otlp-proto': () =>
      protocols.metrics === 'http/protobuf' ? import('@opentelemetry/exporter-metrics-otlp-proto') : none(),
  });
  const core = sdk['@opentelemetry/core'];
  const serviceName = value('OTEL_SERVICE_NAME') ?? options.defaultServiceName ?? 'x-server';
  const resource = sdk['@opentelemetry/resources'].resourceFromAttributes({ 'service.name': serviceName });
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
  const traceExport = sdk['@opentelemetry/exporter-trace-otlp-proto'] ?? sdk['@opentelemetry/exporter-trace-otlp-http'];
  if (tracesSdk !== undefined && traceExport !== undefined) {
    const provider = new tracesSdk.BasicTracerProvider({
      resource,
      spanProcessors: [new tracesSdk.BatchSpanProcessor(new traceExport.OTLPTraceExporter())],
    });
    api.trace.setGlobalTracerProvider(provider);
    stops.push(() => provider.shutdown());
  }
  const metricsSdk = sdk['@opentelemetry/sdk-metrics'];
  const metricExport =
    sdk['@opentelemetry/exporter-metrics-otlp-proto'] ?? sdk['@opentelemetry/exporter-metrics-otlp-http'];
  if (metricsSdk !== undefined && metricExport !== undefined) {
    const interval =
      Number(value('OTEL_METRIC_EXPORT_INTERVAL')) > 0 ? Number(value('OTEL_METRIC_EXPORT_INTERVAL')) : 60_000;
    const provider = new metricsSdk.MeterProvider({
      resource,
      readers: [
        new metricsSdk.PeriodicExportingMetricReader({
          exporter: new metricExport.OTLPMetricExporter(),
          exportIntervalMillis: interval,
        }),
      ],
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
