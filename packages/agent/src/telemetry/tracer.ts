import type { Attributes, Context, Span, SpanKind, Tracer, TracerProvider } from '@opentelemetry/api';
import { ATTR, INSTRUMENTATION_SCOPE } from './attributes.js';
import { otel, otelRegistered } from './otel.js';

/**
 * x's tracer, from whatever TracerProvider is registered globally (the API's no-op one when none is,
 * so every span below costs one non-recording object).
 */
export function xTracer(): Tracer {
  return otel().trace.getTracer(INSTRUMENTATION_SCOPE);
}

/** The API's no-op provider (what a proxy with no delegate hands out), once the API is loaded. */
let noopTracerProvider: TracerProvider | undefined;

/**
 * A span that records nothing, for call sites when tracing is off: the API's non-recording span (that of
 * `trace.wrapSpanContext(INVALID_SPAN_CONTEXT)`), written out so that it needs no API.
 */
export const NOOP_SPAN: Span = {
  spanContext: () => ({ traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 }),
  setAttribute: () => NOOP_SPAN,
  setAttributes: () => NOOP_SPAN,
  addEvent: () => NOOP_SPAN,
  addLink: () => NOOP_SPAN,
  addLinks: () => NOOP_SPAN,
  setStatus: () => NOOP_SPAN,
  updateName: () => NOOP_SPAN,
  end: () => undefined,
  isRecording: () => false,
  recordException: () => undefined,
};

/**
 * True while no TracerProvider is registered: spans are skipped outright, so x costs nothing then (and, with
 * nothing registered with the API at all, does not even load it).
 */
export function tracingOff(): boolean {
  if (!otelRegistered('trace')) return true;
  const { trace, ProxyTracerProvider } = otel();
  noopTracerProvider ??= new ProxyTracerProvider().getDelegate();
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === noopTracerProvider;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  parent?: Context;
}

/**
 * Runs `fn` inside an active span that ends when `fn` settles; a throw is recorded on the span
 * (`error.type`, exception event, error status) and rethrown.
 */
export function withSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  if (tracingOff()) return fn(NOOP_SPAN);
  const parent = options.parent ?? otel().context.active();
  return xTracer().startActiveSpan(
    name,
    { kind: options.kind ?? otel().SpanKind.INTERNAL, ...(options.attributes && { attributes: options.attributes }) },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        recordError(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Marks `span` failed: `error.type` (the error's class name), an exception event and an error status. */
export function recordError(span: Span, error: unknown, type?: string, maskedMessage?: string): void {
  if (!span.isRecording()) return;
  const errorType = type ?? errorTypeOf(error);
  const message = maskedMessage ?? (error instanceof Error ? error.message : String(error));
  span.setAttribute(ATTR.errorType, errorType);
  // With a masked message, the raw error (whose stack repeats the message) stays off the span.
  span.recordException(maskedMessage === undefined && error instanceof Error ? error : { name: errorType, message });
  span.setStatus({ code: otel().SpanStatusCode.ERROR, message });
}

export function errorTypeOf(error: unknown): string {
  if (!(error instanceof Error)) return '_OTHER';
  if (error.name && error.name !== 'Error') return error.name;
  return error.constructor.name || 'Error';
}
