/** Readers for event fields that tolerate any shape: every event is untrusted input. */

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function obj(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The text of a content list (TextContent parts joined; images summarised). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => {
      const record = obj(part);
      if (record === undefined) return '';
      if (record.type === 'text') return str(record.text) ?? '';
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

/** Image URLs of a content list. */
export function contentImages(content: unknown): string[] {
  const urls: string[] = [];
  for (const part of arr(content)) {
    const record = obj(part);
    if (record?.type === 'image') for (const url of arr(record.image_urls)) if (typeof url === 'string') urls.push(url);
  }
  return urls;
}

export function shortTime(timestamp: unknown): string {
  const text = str(timestamp);
  if (text === undefined) return '';
  const match = /T(\d\d:\d\d:\d\d)/.exec(text);
  return match?.[1] ?? text;
}
