export { type EnvTelemetry, setupTelemetryFromEnv } from './otlp-from-env.js';
export { installTraceContext, traceChildLoggerFactory, traceIdOf, traceLogMixin } from './trace-context.js';
