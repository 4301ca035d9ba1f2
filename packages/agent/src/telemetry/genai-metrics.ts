import type { Attributes, Histogram, MeterProvider } from '@opentelemetry/api';
import { DURATION_BUCKETS, INSTRUMENTATION_SCOPE, METRIC, TOKEN_BUCKETS } from './attributes.js';
import { otel, otelRegistered } from './otel.js';

/** The API's no-op meter class, once the API is loaded. */
let NoopMeter: (abstract new () => unknown) | undefined;

interface Instruments {
  provider: MeterProvider;
  /** No MeterProvider is registered: nothing is recorded. */
  off: boolean;
  tokenUsage: Histogram;
  duration: Histogram;
}

let instruments: Instruments | undefined;

/** The two client histograms of the conventions, created once per registered MeterProvider. */
function current(): Instruments {
  const { metrics, createNoopMeter } = otel();
  const provider = metrics.getMeterProvider();
  if (instruments?.provider === provider) return instruments;
  const meter = provider.getMeter(INSTRUMENTATION_SCOPE);
  NoopMeter ??= createNoopMeter().constructor as abstract new () => unknown;
  instruments = {
    provider,
    off: meter instanceof NoopMeter,
    tokenUsage: meter.createHistogram(METRIC.tokenUsage, {
      description: 'Number of input and output tokens used.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    duration: meter.createHistogram(METRIC.operationDuration, {
      description: 'GenAI operation duration.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
  };
  return instruments;
}

/** True while no MeterProvider is registered. */
export function metricsOff(): boolean {
  // With no MeterProvider registered the API is not even loaded.
  return !otelRegistered('metrics') || current().off;
}

/** Records one model call: its duration, and its input and output tokens when known. */
export function recordChatMetrics(
  attributes: Attributes,
  seconds: number,
  tokens: { input: number; output: number } | undefined,
): void {
  if (metricsOff()) return;
  const { tokenUsage, duration, off } = current();
  if (off) return;
  duration.record(seconds, attributes);
  if (tokens === undefined) return;
  tokenUsage.record(tokens.input, { ...attributes, 'gen_ai.token.type': 'input' });
  tokenUsage.record(tokens.output, { ...attributes, 'gen_ai.token.type': 'output' });
}
