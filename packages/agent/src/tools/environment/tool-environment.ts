import { setOwnEntry } from '../../internal/own-entries.js';
import { ToolEnvironmentError } from './tool-environment-error.js';

/**
 * The environment of the processes a tool starts (the terminal's shell). Tools never see the host's whole
 * environment: only the variables named in `inherit` are copied from it, and `set` adds explicit values.
 */
export interface ToolEnvironment {
  /**
   * Host variables copied when present. A trailing `*` matches a prefix (`LC_*`). Defaults to
   * `defaultInheritedVariables`; a given list replaces the default (spread it to extend). Names that look like
   * credentials (`isSensitiveVariableName`) are refused: pass a credential with `set` or, better, as a secret of
   * the conversation, which is masked in events.
   */
  inherit?: readonly string[];
  /**
   * Explicit values, applied after `inherit` (any name is allowed: the caller chose the value). A variable named
   * `__proto__` must be an own key (`Object.fromEntries`, `JSON.parse`): in an object literal it sets the prototype.
   */
  set?: Readonly<Record<string, string>>;
}

/** What a tool inherits from the host by default: enough for a usable shell, no credentials. */
export const defaultInheritedVariables: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'TMPDIR',
  'TZ',
]);

const variableNamePattern = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;
const sensitivePrefixes = [
  'AWS_',
  'AZURE_',
  'GOOGLE_',
  'GCP_',
  'GCLOUD_',
  'OPENAI_',
  'ANTHROPIC_',
  'GEMINI_',
  'MISTRAL_',
  'GROQ_',
  'LITELLM_',
  'OPENROUTER_',
  'HF_',
  'HUGGINGFACE_',
  'GITHUB_',
  'GH_',
  'GITLAB_',
  'NPM_',
  'DOCKER_',
  'X_SESSION_',
  'OH_',
];
/** A word of a variable name (split at `_`) that marks a credential, e.g. `API_KEY`, `ACCESSTOKEN`, `DB_PASSWORD`. */
const sensitiveWord =
  /(KEYS?|TOKENS?|SECRETS?|PASSWORDS?|PASSWD|PASSPHRASE|CREDENTIALS?|COOKIES?)$|SECRET|PASSWORD|TOKEN|^(AUTH|PASS|PRIVATE|PAT)$/;

/**
 * True for names that look like credentials: any `*_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD*`, ... and the
 * variables of cloud and LLM vendors (`AWS_*`, `OPENAI_*`, `ANTHROPIC_*`, `GITHUB_*`, ...).
 */
export function isSensitiveVariableName(name: string): boolean {
  const upper = name.toUpperCase();
  if (sensitivePrefixes.some((prefix) => upper.startsWith(prefix))) return true;
  return upper.split('_').some((word) => word !== '' && sensitiveWord.test(word));
}

function matches(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/** Checks an environment policy up front, so a bad option fails when the tool is created, not mid-run. */
export function validateToolEnvironment(environment: ToolEnvironment | undefined): void {
  for (const name of environment?.inherit ?? []) {
    if (!variableNamePattern.test(name)) {
      throw new ToolEnvironmentError(`toolEnvironment.inherit: '${name}' is not a variable name (or a NAME_* prefix).`);
    }
    if (isSensitiveVariableName(name.replace(/\*$/, ''))) {
      throw new ToolEnvironmentError(
        `toolEnvironment.inherit: '${name}' looks like a credential and is never copied from the host. ` +
          'Give it to the agent as a conversation secret (masked in events), or pass an explicit value with `set`.',
      );
    }
  }
  for (const name of Object.keys(environment?.set ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new ToolEnvironmentError(`toolEnvironment.set: '${name}' is not a valid variable name.`);
    }
  }
}

/**
 * The environment a tool process gets: the inherited host variables (credentials never, even if a pattern
 * matches them), then `set`, then `extra` (the conversation's secrets for this command).
 */
export function buildToolEnvironment(
  environment: ToolEnvironment | undefined,
  host: Readonly<Record<string, string | undefined>> = process.env,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const patterns = environment?.inherit ?? defaultInheritedVariables;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(host)) {
    if (value === undefined || isSensitiveVariableName(name)) continue;
    // An own key even for `__proto__` (a legal variable name), which `env[name] = value` would drop.
    if (patterns.some((pattern) => matches(pattern, name))) setOwnEntry(env, name, value);
  }
  // Spreads copy `__proto__` as a key too (they define properties; they do not assign them).
  return { ...env, ...environment?.set, ...extra };
}
