/**
 * The message of a refusal in any face's shape: `detail` (the REST API, AG-UI), `error.message` (a JSON-RPC error on
 * A2A and MCP, OpenAI's error body on the gateway); '' for anything else.
 */
export function refusalMessage(body: unknown): string {
  const shaped = body as { detail?: unknown; error?: { message?: unknown } } | null;
  const message = shaped?.detail ?? shaped?.error?.message;
  return typeof message === 'string' ? message : '';
}
