import { Marked } from 'marked';
import { sanitizeHtml } from './sanitize.js';

const marked = new Marked({ gfm: true, breaks: true, async: false });

/** Markdown as sanitised HTML: event text is hostile input. */
export function markdownToSafeHtml(text: string): string {
  return sanitizeHtml(marked.parse(text) as string);
}

export function Markdown({ text }: { text: string }) {
  // The HTML is sanitised by DOMPurify (sanitize.ts), and the CSP forbids inline script besides.
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: markdownToSafeHtml(text) }} />;
}
