import { ServerError } from '../errors.js';

/** `OTEL_EXPORTER_OTLP_PROTOCOL` (or a per-signal one) names a protocol this server does not export with. */
export class UnsupportedOtlpProtocolError extends ServerError {
  constructor(variable: string, value: string) {
    super(
      'unsupported_otlp_protocol',
      `${variable}=${value} is not supported: use http/protobuf or http/json (gRPC export is not bundled; ` +
        'an OpenTelemetry Collector accepts both over HTTP on port 4318).',
    );
  }
}
