/** Percent-encodes one character (`a` → `%61`), in upper- or lowercase hex. */
function encodeChar(char: string, lower = false): string {
  const hex = Buffer.from(char, 'utf8').toString('hex');
  const pairs = hex.match(/../g) ?? [];
  return pairs.map((pair) => `%${lower ? pair : pair.toUpperCase()}`).join('');
}

function encodeAll(segment: string, lower = false): string {
  return [...segment].map((char) => encodeChar(char, lower)).join('');
}

/**
 * Request targets that spell `path` (an absolute path, e.g. `/api/conversations/<id>`) the ways attackers
 * try: a `%`-encoded character in every position of every segment (upper- and lowercase hex), whole
 * segments encoded, double encoding, `//`, `/./`, `/../`, `%2e`, trailing `/` and `/.`, case changes,
 * `;` parameters, backslashes and `%5C`/`%2F` separators, absolute-form targets (with and without
 * encodings, other schemes' case), fragments and queries carrying a wrong key.
 */
export function spellings(path: string, port: number): string[] {
  const segments = path.split('/').slice(1);
  const join = (parts: string[]): string => `/${parts.join('/')}`;
  const replaced = (index: number, segment: string): string =>
    join(segments.map((part, at) => (at === index ? segment : part)));
  const out = new Set<string>([path]);
  segments.forEach((segment, index) => {
    for (const at of new Set([0, 1, Math.floor(segment.length / 2), segment.length - 1])) {
      if (at < 0 || at >= segment.length) continue;
      for (const lower of [false, true]) {
        out.add(
          replaced(index, `${segment.slice(0, at)}${encodeChar(segment[at] ?? '', lower)}${segment.slice(at + 1)}`),
        );
      }
    }
    out.add(replaced(index, encodeAll(segment)));
    out.add(replaced(index, encodeAll(segment, true)));
    out.add(replaced(index, `%25${encodeChar(segment[0] ?? '').slice(1)}${segment.slice(1)}`));
    out.add(replaced(index, segment.toUpperCase()));
    out.add(replaced(index, `${segment[0]?.toUpperCase() ?? ''}${segment.slice(1)}`));
    out.add(replaced(index, `${segment};x=1`));
    out.add(replaced(index, `${segment};`));
    out.add(replaced(index, `${segment}%3B`));
    out.add(replaced(index, `${segment}%00`));
    out.add(replaced(index, `${segment}.`));
    out.add(replaced(index, `${segment}%20`));
    out.add(join([...segments.slice(0, index), '.', ...segments.slice(index)]));
    out.add(join([...segments.slice(0, index), '%2e', ...segments.slice(index)]));
    out.add(join([...segments.slice(0, index), 'x', '..', ...segments.slice(index)]));
    out.add(join([...segments.slice(0, index), 'x', '%2e%2e', ...segments.slice(index)]));
    out.add(join([...segments.slice(0, index), '', ...segments.slice(index)]));
  });
  for (const variant of [...out]) out.add(`${variant}/`);
  out.add(`${path}?session_api_key=wrong`);
  out.add(`${replaced(0, encodeAll(segments[0] ?? ''))}?session_api_key=wrong`);
  out.add(`${path}/.`);
  out.add(`${path}//`);
  out.add(`${path}#fragment`);
  out.add(`/${path}`);
  out.add(`//${path}`);
  out.add(path.toUpperCase());
  out.add(path.replace(/\//g, '\\'));
  out.add(path.replace(/\//g, '%5C'));
  out.add(path.replace(/\//g, '%2F'));
  out.add(path.replace(/\//g, '%2f'));
  out.add(`/${segments[0]}\\${segments.slice(1).join('/')}`);
  const encodedFirst = replaced(0, encodeAll(segments[0] ?? ''));
  for (const authority of [`127.0.0.1:${port}`, `localhost:${port}`]) {
    for (const variant of [path, encodedFirst, `${path}/`, `/.${path}`, `//${path.slice(1)}`]) {
      out.add(`http://${authority}${variant}`);
      out.add(`HTTP://${authority.toUpperCase()}${variant}`);
    }
  }
  out.add(`http://user:pw@127.0.0.1:${port}${path}`);
  out.add(`https://127.0.0.1:${port}${path}`);
  out.add(`ws://127.0.0.1:${port}${path}`);
  return [...out];
}
