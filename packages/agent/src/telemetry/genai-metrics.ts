import { type Attributes, createNoopMeter, type Histogram, type MeterProvider, metrics } from '@opentelemetry/api';
import { DURATION_BUCKETS, INSTRUMENTATION_SCOPE, METRIC, TOKEN_BUCKETS } from './attributes.js';

const NoopMeter = createNoopMeter().constructor;

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
  const provider = metrics.getMeterProvider();
  if (instruments?.provider === provider) return instruments;
  const meter = provider.getMeter(INSTRUMENTATION_SCOPE);
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
  return current().off;
}

/** Records one model call: its duration, and its input and output tokens when known. */
export function recordChatMetrics(
  attributes: Attributes,
  seconds: number,
  tokens: { input: number; output: number } | undefined,
): void {
  const { tokenUsage, duration, off } = current();
  if (off) return;
  duration.record(seconds, attributes);
  if (tokens === undefined) return;
  tokenUsage.record(tokens.input, { ...attributes, 'gen_ai.token.type': 'input' });
  tokenUsage.record(tokens.output, { ...attributes, 'gen_ai.token.type': 'output' });
}
