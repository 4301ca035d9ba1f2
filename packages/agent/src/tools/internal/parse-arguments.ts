export type Arguments = Record<string, unknown>;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching raw control characters is the point
const controlCharacters = /[\u0000-\u001f]/g;
const shortEscapes: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };

/** Some models put raw newlines/tabs inside JSON strings; JSON forbids them, so escape every U+0000–U+001F. */
export function escapeControlCharacters(raw: string): string {
  return raw.replace(controlCharacters, (char) => {
    const code = char.charCodeAt(0);
    return shortEscapes[code] ?? `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `JSON.parse` that retries once with control characters escaped. Throws the SyntaxError of the retry. */
export function parseJsonLenient(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return JSON.parse(escapeControlCharacters(raw));
  }
}

const securityRiskTypos = ['security_rort', 'securtiy_risk', 'security_riks'];

/** Renames the first `security_risk` typo found and drops null-valued keys (null means absent). */
export function normalizeArgumentKeys(arguments_: Arguments): Arguments {
  // Almost every call has neither a typo nor a null: then the copy is one pass over the keys, no rebuild (a
  // `__proto__` key takes the general path, which keeps it a field).
  let clean = true;
  for (const key in arguments_) {
    if (!Object.hasOwn(arguments_, key)) continue;
    const value = arguments_[key];
    if (value === null || value === undefined || securityRiskTypos.includes(key) || key === '__proto__') {
      clean = false;
      break;
    }
  }
  if (clean) return { ...arguments_ };
  const renamed = { ...arguments_ };
  for (const typo of securityRiskTypos) {
    if (typo in renamed) {
      const value = renamed[typo];
      delete renamed[typo];
      renamed.security_risk = value;
      break;
    }
  }
  const cleaned: Arguments = {};
  for (const [key, value] of Object.entries(renamed)) {
    // Defined, not assigned: `cleaned.__proto__ = value` would make the model's object the prototype, and every
    // field it holds (`command`, `security_risk`) would then read as an argument of the call. Kept as a field, it
    // reaches a tool whose schema takes any key (an MCP tool) and is refused by name by a strict one.
    if (value === null || value === undefined) continue;
    Object.defineProperty(cleaned, key, { value, writable: true, enumerable: true, configurable: true });
  }
  return cleaned;
}

/** §9.2 step 1: parse, retry with control characters escaped, non-object → `{}`, normalize keys. */
export function parseToolCallArguments(raw: string): Arguments {
  const parsed = parseJsonLenient(raw);
  const object = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Arguments) : {};
  return normalizeArgumentKeys(object);
}
