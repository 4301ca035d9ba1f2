/** Characters that make a matcher a regular expression rather than an exact tool name (as the reference). */
const REGEX_METACHARACTERS = /[|.*+?[\]()^$\\]/;

function fullMatch(pattern: string, value: string): boolean | undefined {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u').test(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether a hook matcher applies to a tool (reference `HookMatcher.matches`): `*` or `''` match everything
 * (and events without a tool); `/pattern/` is a regular expression; a matcher containing regex
 * metacharacters is tried as one (falling back to an exact match when it does not compile); anything else
 * must equal the tool name. Regular expressions must match the whole name.
 */
export function hookMatcherMatches(matcher: string, toolName: string | undefined): boolean {
  if (matcher === '*' || matcher === '') return true;
  if (toolName === undefined) return false;
  if (matcher.length > 2 && matcher.startsWith('/') && matcher.endsWith('/')) {
    return fullMatch(matcher.slice(1, -1), toolName) ?? false;
  }
  if (REGEX_METACHARACTERS.test(matcher)) {
    const matched = fullMatch(matcher, toolName);
    if (matched !== undefined) return matched;
  }
  return matcher === toolName;
}
