import { type CompiledValues, compileValues, maskCompiled } from './internal/mask-values.js';
import { InvalidSecretsError } from './invalid-secrets-error.js';
import type { SecretCipher } from './secret-cipher.js';
import {
  type KeptSecretSourceJson,
  redactedSecretValue,
  type SecretRegistryJson,
  type StaticSecretJson,
  secretRegistryJsonSchema,
} from './secret-registry-json.js';

/** The text that replaces a secret value in output (the same text the terminal tool uses). */
const secretPlaceholder = '<secret-hidden>';

/** Values shorter than this are not masked: hiding every "a" or "1" in output would destroy it and protect nothing. */
const minimumMaskedLength = 3;

/** A secret computed when a command needs it (e.g. a short-lived token); may be async. */
export type SecretFunction = () => string | Promise<string>;

/** A secret's value: a string, a function computing it, or a description with an optional value. */
export type SecretInput =
  | string
  | SecretFunction
  | { value?: string | SecretFunction | null; description?: string | null };

/** Where the registry reports problems it recovers from (undecryptable values, failing secret functions). */
export interface SecretLogger {
  warn(message: string): void;
}

export interface SecretRegistryOptions {
  logger?: SecretLogger;
}

interface SecretEntry {
  value?: string | SecretFunction;
  description?: string;
}

const computedDescription = 'Computed by a function when used; the value is not stored';

/**
 * The conversation's named secrets (§7.8). A command gets as environment variables the secrets whose name appears
 * in it (case-insensitively); tool output is masked with every value the registry knows.
 */
export class SecretRegistry {
  readonly #entries = new Map<string, SecretEntry>();
  /** Sources x cannot resolve (the reference's LookupSecret, custom kinds), as read: written back unchanged. */
  readonly #kept = new Map<string, KeptSecretSourceJson>();
  /** Values produced by secret functions so far; they are masked like static values. */
  readonly #computedValues = new Set<string>();
  /**
   * Values `update` replaced. They stay masked: the terminal's shell keeps what it exported (`env` prints the old
   * token after a rotation), and a file or a background process may still hold one.
   */
  readonly #replacedValues = new Set<string>();
  readonly #logger: SecretLogger | undefined;
  /**
   * The values `mask` hides, compiled; `stale` after any change to them. Every string of every observation is
   * masked, and collecting the values anew each time cost more than masking a 2 KB text without a secret in it.
   */
  #compiled: CompiledValues | undefined | 'stale' = 'stale';

  constructor(secrets: Readonly<Record<string, SecretInput>> = {}, options: SecretRegistryOptions = {}) {
    this.#logger = options.logger;
    this.update(secrets);
  }

  /**
   * Adds or replaces secrets by name. Throws `InvalidSecretsError` (naming the secret, never its value) for an
   * empty name or a value that is not a string, function or `{ value?, description? }`; nothing is changed then.
   */
  update(secrets: Readonly<Record<string, SecretInput>>): void {
    const entries = Object.entries(secrets).map(([name, input]) => [name, toEntry(name, input)] as const);
    for (const [name, entry] of entries) {
      const previous = this.#entries.get(name)?.value;
      if (typeof previous === 'string' && previous !== entry.value) this.#replacedValues.add(previous);
      this.#entries.set(name, entry);
      this.#kept.delete(name);
    }
    this.#compiled = 'stale';
  }

  /** Names of all registered secrets, in registration order. */
  names(): string[] {
    return [...this.#entries.keys()];
  }

  /** The description of a secret, if any. */
  describe(name: string): string | undefined {
    return this.#entries.get(name)?.description;
  }

  /** True while no secret is registered: `envFor` then gives `{}` whatever the command (so callers may skip building it). */
  get empty(): boolean {
    return this.#entries.size === 0;
  }

  /**
   * The environment variables for a command: each secret whose name occurs in the command text, compared
   * case-insensitively (`echo $github_token` gets `GITHUB_TOKEN`). Secret functions run now; one that throws or
   * returns a non-string is left out with a warning, as the reference does. Secrets without a value are left out.
   */
  async envFor(command: string): Promise<Record<string, string>> {
    const text = command.toLowerCase();
    const env: Record<string, string> = {};
    for (const [name, entry] of this.#entries) {
      if (entry.value === undefined || !text.includes(name.toLowerCase())) continue;
      const value = await this.#resolve(name, entry.value);
      if (value !== undefined) env[name] = value;
    }
    return env;
  }

  /** Replaces every known secret value of 3 or more characters with `<secret-hidden>` (overlaps merge into one). */
  mask(text: string): string {
    // Every string a tool returns comes through here: with no secret known there is nothing to collect.
    if (this.#entries.size === 0 && this.#computedValues.size === 0) return text;
    if (this.#compiled === 'stale') {
      this.#compiled = compileValues(this.knownValues().filter((value) => value.length >= minimumMaskedLength));
    }
    return maskCompiled(text, this.#compiled, secretPlaceholder);
  }

  /**
   * Every value the registry knows: static values, the values secret functions have returned so far and the values
   * `update` replaced (all of them are masked; none is written by `toJSON`).
   */
  knownValues(): string[] {
    const values = new Set<string>();
    for (const entry of this.#entries.values()) if (typeof entry.value === 'string') values.add(entry.value);
    for (const value of this.#computedValues) values.add(value);
    for (const value of this.#replacedValues) values.add(value);
    return [...values];
  }

  /**
   * The reference's `secret_registry` JSON. Without a cipher every value is the redacted literal `**********`
   * (lost on reload); with one, values are Fernet tokens (a value that already is a token for this key is kept).
   * Function secrets cannot be stored: they become a StaticSecret with a redacted value and a description saying
   * they are computed, so they must be registered again after a reload.
   */
  toJSON(options: { cipher?: SecretCipher } = {}): SecretRegistryJson {
    const sources: Record<string, StaticSecretJson | KeptSecretSourceJson> = Object.fromEntries(this.#kept);
    for (const [name, entry] of this.#entries) {
      if (typeof entry.value === 'function') {
        const description =
          entry.description === undefined ? computedDescription : `${entry.description} (${computedDescription})`;
        sources[name] = { description, value: redactedSecretValue, kind: 'StaticSecret' };
        continue;
      }
      sources[name] = {
        ...(entry.description === undefined ? {} : { description: entry.description }),
        ...(entry.value === undefined ? {} : { value: storedValue(entry.value, options.cipher) }),
        kind: 'StaticSecret',
      };
    }
    return { secret_sources: sources };
  }

  /**
   * Rebuilds a registry from its JSON (§7.8). null, blank or redacted values give a secret without a value; with a
   * cipher, a value starting `gAAAAA` is decrypted, and one that cannot be (another key, damaged) also gives no
   * value plus a warning to `logger`. Other values are taken as plaintext. Throws `InvalidSecretsError` naming the
   * field when the JSON does not have the `secret_sources` shape. Sources of other kinds (`LookupSecret`, a reference
   * user's own) give no value here and are written back by `toJSON` as they were read.
   */
  static fromJSON(json: unknown, options: { cipher?: SecretCipher; logger?: SecretLogger } = {}): SecretRegistry {
    const parsed = secretRegistryJsonSchema.safeParse(json);
    if (!parsed.success) {
      const [issue] = parsed.error.issues;
      throw new InvalidSecretsError(issue?.path.map(String).join('.') ?? '', issue?.message ?? 'invalid JSON');
    }
    const registry = new SecretRegistry({}, { logger: options.logger });
    const raw = (json as { secret_sources?: Record<string, unknown> | null }).secret_sources ?? {};
    // A file another writer made may hold a source named `__proto__` (parsing drops it): kept as read, as the
    // sources x cannot resolve are, so it is written back unchanged; no secret of that name is registered.
    if (Object.hasOwn(raw, PROTOTYPE_KEY))
      registry.#kept.set(PROTOTYPE_KEY, raw[PROTOTYPE_KEY] as KeptSecretSourceJson);
    for (const [name, source] of Object.entries(parsed.data.secret_sources)) {
      if (source.kind !== 'StaticSecret') {
        registry.#kept.set(name, raw[name] as KeptSecretSourceJson);
        continue;
      }
      const stored = source as StaticSecretJson;
      const value = loadedValue(name, stored.value, options);
      registry.update({ [name]: { value, description: stored.description } });
    }
    return registry;
  }

  async #resolve(name: string, value: string | SecretFunction): Promise<string | undefined> {
    if (typeof value === 'string') return value;
    try {
      const computed: unknown = await value();
      if (typeof computed !== 'string') {
        this.#logger?.warn(`secret ${name}: its function returned ${typeof computed}, not a string; left out`);
        return undefined;
      }
      if (!this.#computedValues.has(computed)) {
        this.#computedValues.add(computed);
        this.#compiled = 'stale';
      }
      return computed;
    } catch (error) {
      // Masked: a function fetching a token may fail with a message that quotes another secret (the vault's own
      // token in a request URL, the expired value it tried to refresh), and the logger is not masked downstream.
      const reason = this.mask(error instanceof Error ? error.message : String(error));
      this.#logger?.warn(`secret ${name}: its function failed (${reason}); left out`);
      return undefined;
    }
  }
}

/**
 * The one name `secret_sources` cannot hold for x: a JSON object's `__proto__` key is its prototype to JavaScript (zod
 * drops it on load), so a secret of that name would be lost on the first save and reload.
 */
const PROTOTYPE_KEY = '__proto__';

function toEntry(name: string, input: SecretInput): SecretEntry {
  if (name === '') throw new InvalidSecretsError('', 'a secret name must not be empty');
  if (name === PROTOTYPE_KEY) {
    throw new InvalidSecretsError(name, `a secret cannot be named ${PROTOTYPE_KEY}: name it otherwise`);
  }
  if (typeof input === 'string' || typeof input === 'function') return { value: input };
  // An array is an object too, but `{ value }` of one is undefined: taken as is it would register a secret
  // without a value, and whatever the caller meant to hide in it would never be masked.
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InvalidSecretsError(
      name,
      `expected a string, a function or { value, description }, got ${typeOf(input)}`,
    );
  }
  const { value, description } = input;
  if (value != null && typeof value !== 'string' && typeof value !== 'function') {
    throw new InvalidSecretsError(`${name}.value`, `expected a string or a function, got ${typeOf(value)}`);
  }
  if (description != null && typeof description !== 'string') {
    throw new InvalidSecretsError(`${name}.description`, `expected a string, got ${typeOf(description)}`);
  }
  return {
    ...(value == null ? {} : { value }),
    ...(description == null ? {} : { description }),
  };
}

function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

function storedValue(value: string, cipher: SecretCipher | undefined): string {
  if (cipher === undefined) return redactedSecretValue;
  return cipher.isToken(value) ? value : cipher.encrypt(value);
}

function loadedValue(
  name: string,
  value: string | null | undefined,
  options: { cipher?: SecretCipher; logger?: SecretLogger },
): string | undefined {
  if (value == null || value.trim() === '' || value === redactedSecretValue) return undefined;
  if (options.cipher === undefined || !value.startsWith('gAAAAA')) return value;
  try {
    return options.cipher.decrypt(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    options.logger?.warn(`secret ${name} could not be decrypted and was loaded without a value: ${reason}`);
    return undefined;
  }
}
