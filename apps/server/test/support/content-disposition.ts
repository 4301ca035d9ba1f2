/**
 * The file name a browser saves a download under, read strictly as RFC 6266 and RFC 5987 say: the only parameter is
 * `filename*=UTF-8''<value>`, whose value holds attr-chars and `%XX` escapes only. Anything else is `undefined`, as
 * a strict reader would take the header to name no file.
 */
export function attachmentFileName(header: string | null): string | undefined {
  const match = /^attachment; filename\*=UTF-8''((?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+)$/.exec(header ?? '');
  if (match?.[1] === undefined) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}
