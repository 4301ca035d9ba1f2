/** The connection URL for messages: the password (if any) replaced by `***`. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL (a libpq keyword string): drop anything that looks like a password.
    return url.replace(/password\s*=\s*\S+/gi, 'password=***');
  }
}
