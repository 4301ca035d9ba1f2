import DOMPurify from 'dompurify';

/** Link targets an event may carry; anything else (javascript:, data:, file:, relative) is dropped. */
export function isSafeHref(href: string): boolean {
  return /^(?:https?:|mailto:)/i.test(href.trim());
}

let configured = false;

function configure(): void {
  if (configured) return;
  configured = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href');
      if (href === null || !isSafeHref(href)) node.removeAttribute('href');
      // Links open in a new browsing context that cannot reach back into the viewer or learn where it came from.
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
}

/**
 * Sanitises HTML rendered from event text: no scripts, no event handlers, no styles, no forms, no
 * media or frames (nothing that could load a remote resource), only http(s)/mailto links. The page's
 * Content-Security-Policy is the second wall behind this one.
 */
export function sanitizeHtml(html: string): string {
  configure();
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      'img',
      'style',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'object',
      'embed',
      'video',
      'audio',
      'source',
      'picture',
      'link',
      'meta',
      'base',
      'svg',
      'math',
    ],
    FORBID_ATTR: ['style', 'srcset', 'src', 'action', 'formaction', 'background', 'poster'],
    ALLOW_DATA_ATTR: false,
  });
}
