import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { DataPointType, type HistogramMetricData, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

class CollectingReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** The OpenTelemetry SDK registered globally with an in-memory span exporter and a pull metric reader. */
export interface TestSdk {
  spans(): ReadableSpan[];
  /** The histograms recorded so far, by instrument name. */
  histograms(): Promise<Map<string, HistogramMetricData>>;
  shutdown(): Promise<void>;
}

export function registerTestSdk(): TestSdk {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exporter.getFinishedSpans(),
    async histograms() {
      const { resourceMetrics } = await reader.collect();
      const found = new Map<string, HistogramMetricData>();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.dataPointType === DataPointType.HISTOGRAM) found.set(metric.descriptor.name, metric);
        }
      }
      return found;
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The span's parent span id (the SDK 2 field). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
