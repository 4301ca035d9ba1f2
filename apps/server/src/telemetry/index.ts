export { type EnvTelemetry, setupTelemetryFromEnv, type TelemetryOptions } from './otlp-from-env.js';
export { installTraceContext, traceChildLoggerFactory, traceIdOf, traceLogMixin } from './trace-context.js';
export { UnsupportedOtlpProtocolError } from './unsupported-otlp-protocol-error.js';
