/** The SQLSTATE of a node-postgres error, if it has one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** The constraint a unique violation (23505) names. */
export function violatedConstraint(error: unknown): string | undefined {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

/**
 * Whether the statement's outcome is unknown because the connection failed (server gone, restarted,
 * network cut), as opposed to the server answering with an error. Such a write may or may not have
 * committed: retry only when a retry is idempotent.
 */
export function isConnectionFailure(error: unknown): boolean {
  const state = sqlState(error);
  if (state !== undefined) return state.startsWith('08') || state === '57P01' || state === '57P02' || state === '57P03';
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|ECONNREFUSED|ECONNRESET|EPIPE|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    message,
  );
}
