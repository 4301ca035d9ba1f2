/**
 * Why a client's image URL cannot be sent to a model, or undefined when it can: an `http(s)://` URL, or a `data:`
 * URL of an image in base64 (what every provider takes). Anything else (`javascript:`, `file:`, a bare path, a data
 * URL of text, base64 that is not) would only fail later at the provider, as a 502 after the message was recorded;
 * refused where it comes in, naming where it is. Stored conversations are not checked: the reference takes any.
 */
export function imageUrlProblem(url: string): string | undefined {
  if (/^data:/i.test(url)) {
    const match = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/_-]*={0,2})$/i.exec(url);
    if (match === null) return 'a data: URL of an image must be data:image/<type>;base64,<base64 data>';
    if (match[2] === '') return 'the data: URL holds no image data';
    return undefined;
  }
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return 'not a URL (an image is an http(s):// URL or a data:image/... URL)';
  }
  if (protocol === 'http:' || protocol === 'https:') return undefined;
  return `a ${protocol} URL cannot be sent to a model (an image is an http(s):// URL or a data:image/... URL)`;
}

/** A refused image URL of a message's content, where it is: `[part index, 'image_urls', URL index]`. */
export interface ImageUrlIssue {
  path: [number, 'image_urls', number];
  problem: string;
}

/** The refused image URLs of content parts (`imageUrlProblem`), in order; none: an empty list. */
export function imageUrlIssues(parts: readonly { type: string; image_urls?: readonly string[] }[]): ImageUrlIssue[] {
  const issues: ImageUrlIssue[] = [];
  parts.forEach((part, index) => {
    if (part.type !== 'image') return;
    (part.image_urls ?? []).forEach((url, urlIndex) => {
      const problem = imageUrlProblem(url);
      if (problem !== undefined) issues.push({ path: [index, 'image_urls', urlIndex], problem });
    });
  });
  return issues;
}

/** The problems of a message's image URLs, each as `content.<i>.image_urls.<j>: <problem>` (none: an empty list). */
export function imageProblems(message: {
  content: readonly { type: string; image_urls?: readonly string[] }[];
}): string[] {
  return imageUrlIssues(message.content).map(({ path, problem }) => `content.${path.join('.')}: ${problem}`);
}
