import { startXServe, type XServe } from '@x/browser-testing';
import { expect } from 'vitest';

/** The session key every test server here requires. */
export const KEY = 'client-mutants-key';

/** An offline agent answering from `script` (one turn per model call), with the tools named. */
export function scriptedAgent(
  script: ReadonlyArray<{ content?: string; toolCalls?: { name: string; arguments: Record<string, unknown> }[] }>,
  tools: string[] = [],
): Record<string, unknown> {
  return { llm: { model: 'offline' }, tools: tools.map((name) => ({ name })), x_offline_script: script };
}

/** A finish tool call: the turn that ends a run. */
export const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

/** A real `x serve --testing` on a port of 127.0.0.1 (offline scripted agents allowed), requiring `KEY`. */
export function startServer(): Promise<XServe> {
  return startXServe({ apiKey: KEY });
}

/** A REST call of the test itself (not through the client under test). */
export async function api(server: XServe, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-session-api-key': KEY, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * Polls until the assertion holds. The timeout is only a safety net for a hung test, generous for a machine running
 * the whole suite on two cores (CI): never what a test measures.
 */
export const eventually: typeof expect.poll = (read, options) =>
  expect.poll(read, { timeout: 60_000, interval: 10, ...options });

/** Per-test safety net for the describe blocks here (see `eventually`). */
export const TEST_TIMEOUT = { timeout: 120_000 };
