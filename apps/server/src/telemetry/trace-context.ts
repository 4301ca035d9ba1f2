import { context, isSpanContextValid, propagation, trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-([\da-f]{16})-[\da-f]{2}$/;

/** The trace id of a W3C `traceparent` header, when it is well formed (for log lines). */
export function traceIdOf(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  if (match === null || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return match[1];
}

/**
 * Propagates W3C trace context (`traceparent`, `tracestate`, `baggage`) from each request into what
 * its handler starts: the handler, and so a run it starts in the background, runs in the context the
 * registered propagator extracts, and the run's `invoke_agent` span is a child of the caller's span.
 */
export function installTraceContext(app: FastifyInstance): void {
  // After the body is read (stream callbacks do not keep the async context), the rest of the request
  // runs inside the extracted context.
  app.addHook('preHandler', (request, _reply, done) => {
    const extracted = propagation.extract(context.active(), request.headers);
    if (extracted === context.active()) {
      done();
      return;
    }
    context.with(extracted, done);
  });
}

const CONVERSATION_PATH = /^\/api\/conversations\/([^/?#]+)/;

/**
 * Fastify's `childLoggerFactory`: every line a request logs (from `incoming request` on) carries the
 * `traceId` of its `traceparent` header and, on conversation routes, the `conversationId`.
 */
export function traceChildLoggerFactory<L extends { child(bindings: object, options?: object): L }>(
  logger: L,
  bindings: object,
  options: object,
  raw: { url?: string; headers: Record<string, unknown> },
): L {
  const traceId = traceIdOf(raw.headers.traceparent);
  const match = CONVERSATION_PATH.exec(raw.url ?? '');
  let conversationId: string | undefined;
  if (match !== null && !['search', 'count'].includes(match[1]!)) {
    try {
      conversationId = decodeURIComponent(match[1]!);
    } catch {
      conversationId = undefined;
    }
  }
  return logger.child(
    {
      ...bindings,
      ...(traceId === undefined ? {} : { traceId }),
      ...(conversationId === undefined ? {} : { conversationId }),
    },
    options,
  );
}

/**
 * A pino `mixin`: lines logged inside a span (a run's lines, for instance) get its `traceId` and
 * `spanId`, unless the logger already has a trace id bound.
 */
export function traceLogMixin(
  _merge: object,
  _level: number,
  logger?: { bindings(): Record<string, unknown> },
): Record<string, string> {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const spanContext = span.spanContext();
  if (!isSpanContextValid(spanContext)) return {};
  if (logger?.bindings().traceId !== undefined) return { spanId: spanContext.spanId };
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}
