import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { ATTR, INSTRUMENTATION_SCOPE } from './attributes.js';

/**
 * x's tracer, from whatever TracerProvider is registered globally (the API's no-op one when none is,
 * so every span below costs one non-recording object).
 */
export function xTracer(): Tracer {
  return trace.getTracer(INSTRUMENTATION_SCOPE);
}

/** The API's no-op provider (what a proxy with no delegate hands out). */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
/** A span that records nothing, for call sites when tracing is off. */
export const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** True while no TracerProvider is registered: spans are skipped outright, so x costs nothing then. */
export function tracingOff(): boolean {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === NOOP_TRACER_PROVIDER;
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
  const parent = options.parent ?? context.active();
  return xTracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, ...(options.attributes && { attributes: options.attributes }) },
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
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

export function errorTypeOf(error: unknown): string {
  if (!(error instanceof Error)) return '_OTHER';
  if (error.name && error.name !== 'Error') return error.name;
  return error.constructor.name || 'Error';
}
