/** Prices of one model, in dollars per million tokens. */
export interface Pricing {
  /** Prompt tokens that were neither read from nor written to the cache. */
  inputPerMillion: number;
  outputPerMillion: number;
  /** Prompt tokens read from the provider's cache; defaults to `inputPerMillion`. */
  cachedInputPerMillion?: number;
  /** Prompt tokens written to the cache (Anthropic); defaults to `inputPerMillion`. */
  cacheWritePerMillion?: number;
}

/**
 * List prices of common models (USD per million tokens), keyed by model name without provider prefix.
 * A key matches the model name exactly or as a prefix followed by `-` (`claude-sonnet-4-5` matches
 * `claude-sonnet-4-5-20250929`); the longest matching key wins. Extend or override it with
 * `registerPricing`, or give a `pricing` to one LLM.
 */
const builtInPricing: Readonly<Record<string, Pricing>> = {
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10, cachedInputPerMillion: 1.25 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6, cachedInputPerMillion: 0.075 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6, cachedInputPerMillion: 0.1 },
  'gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.125 },
  'gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2, cachedInputPerMillion: 0.025 },
  o3: { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  'o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4, cachedInputPerMillion: 0.275 },
  'claude-opus-4': {
    inputPerMillion: 15,
    outputPerMillion: 75,
    cachedInputPerMillion: 1.5,
    cacheWritePerMillion: 18.75,
  },
  'claude-opus-4-5': {
    inputPerMillion: 5,
    outputPerMillion: 25,
    cachedInputPerMillion: 0.5,
    cacheWritePerMillion: 6.25,
  },
  'claude-sonnet-4': {
    inputPerMillion: 3,
    outputPerMillion: 15,
    cachedInputPerMillion: 0.3,
    cacheWritePerMillion: 3.75,
  },
  'claude-haiku-4-5': {
    inputPerMillion: 1,
    outputPerMillion: 5,
    cachedInputPerMillion: 0.1,
    cacheWritePerMillion: 1.25,
  },
  'gemini-2.5-pro': { inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.31 },
  'gemini-2.5-flash': { inputPerMillion: 0.3, outputPerMillion: 2.5, cachedInputPerMillion: 0.075 },
  'gemini-2.5-flash-lite': { inputPerMillion: 0.1, outputPerMillion: 0.4, cachedInputPerMillion: 0.025 },
};

const registered = new Map<string, Pricing>();

/** Adds or replaces prices in the process-wide table (e.g. your own model names or negotiated prices). */
export function registerPricing(table: Record<string, Pricing>): void {
  for (const [model, pricing] of Object.entries(table)) registered.set(bareModel(model), pricing);
}

/** The model name without a `provider/` prefix. */
function bareModel(model: string): string {
  const slash = model.lastIndexOf('/');
  return slash === -1 ? model : model.slice(slash + 1);
}

/** The price table as it stands: the built-in prices overridden by every `registerPricing`. */
export function pricingTable(): Record<string, Pricing> {
  return { ...builtInPricing, ...Object.fromEntries(registered) };
}

/** Prices of `model` from the table (longest matching key), or undefined when it lists none. */
export function pricingFor(model: string): Pricing | undefined {
  const name = bareModel(model);
  let best: string | undefined;
  for (const key of Object.keys(builtInPricing).concat([...registered.keys()])) {
    if (name !== key && !name.startsWith(`${key}-`)) continue;
    if (best === undefined || key.length > best.length) best = key;
  }
  if (best === undefined) return undefined;
  return registered.get(best) ?? builtInPricing[best];
}
