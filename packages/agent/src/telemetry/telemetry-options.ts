/** How x's telemetry behaves; see `configureTelemetry`. */
export interface TelemetryOptions {
  /**
   * Put message and tool content on spans (`gen_ai.input.messages`, `gen_ai.output.messages`,
   * `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`). Off by default; also turned on by
   * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`. Secret values registered with a
   * conversation are masked before anything reaches a span.
   */
  captureMessageContent?: boolean;
}

let configured: TelemetryOptions = {};

/** Sets process-wide telemetry options (content capture). Returns the previous options. */
export function configureTelemetry(options: TelemetryOptions): TelemetryOptions {
  const previous = configured;
  configured = { ...options };
  return previous;
}

/** Whether content goes on spans: the option when set, else the standard environment variable. */
export function captureMessageContent(env: NodeJS.ProcessEnv = process.env): boolean {
  if (configured.captureMessageContent !== undefined) return configured.captureMessageContent;
  return env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === 'true';
}
