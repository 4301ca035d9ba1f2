import { type SecurityRisk, securityRiskSchema } from '@x/events';
import { z } from 'zod';
import { InvalidConfirmationPolicyError } from './invalid-confirmation-policy-error.js';
import { isOrderedRisk, isRiskier } from './security-risk.js';

/** Every action waits for the user. */
export const alwaysConfirmSchema = z.object({ kind: z.literal('AlwaysConfirm') });
export type AlwaysConfirm = z.infer<typeof alwaysConfirmSchema>;

/** No action waits for the user (the default policy). */
export const neverConfirmSchema = z.object({ kind: z.literal('NeverConfirm') });
export type NeverConfirm = z.infer<typeof neverConfirmSchema>;

/** Actions at or above `threshold` wait for the user; so do actions of UNKNOWN risk unless `confirm_unknown` is false. */
export const confirmRiskySchema = z.object({
  /** Lowest risk that needs confirmation; UNKNOWN is rejected because it has no place in the ordering. Default HIGH. */
  threshold: securityRiskSchema
    .exclude(['UNKNOWN'], { error: 'threshold must be LOW, MEDIUM or HIGH (UNKNOWN cannot be ordered)' })
    .nullish()
    .transform((threshold) => threshold ?? 'HIGH'),
  /** Whether an action whose risk is UNKNOWN needs confirmation. Default true. */
  confirm_unknown: z
    .boolean()
    .nullish()
    .transform((confirm) => confirm ?? true),
  kind: z.literal('ConfirmRisky'),
});
export type ConfirmRisky = z.infer<typeof confirmRiskySchema>;

/** A confirmation policy as the reference writes it in base_state.json (§8.5), discriminated by `kind`. */
export const confirmationPolicySchema = z.discriminatedUnion('kind', [
  alwaysConfirmSchema,
  neverConfirmSchema,
  confirmRiskySchema,
]);
/** A parsed policy: every default filled in. */
export type ConfirmationPolicy = z.infer<typeof confirmationPolicySchema>;
/** A policy as written by hand or read from JSON: ConfirmRisky's fields may be left out. */
export type ConfirmationPolicyInput = z.input<typeof confirmationPolicySchema>;

/** Parsed policies by `policyKey`: a flat policy of primitives is parsed once per process, not once per step. */
const parsedByKey = new Map<string, ConfirmationPolicy>();
const policyFields: ReadonlySet<string> = new Set(['kind', 'threshold', 'confirm_unknown']);

/**
 * A key naming everything the schema reads of a plain object holding only the policy's fields with primitive
 * values (then its result depends on nothing else); undefined for any other value, which zod always parses.
 */
function policyKey(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return undefined;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if (!policyFields.has(key) || (typeof field === 'object' && field !== null) || typeof field === 'function') {
      return undefined;
    }
  }
  // Typed, so `true` and `'true'` differ; only valid policies are cached, and they hold no numbers.
  return JSON.stringify([...policyFields].map((key) => [typeof record[key], record[key] ?? null]));
}

// The default policy, every conversation's unless set, is known parsed: its first step then does not pay zod's first
// parse of the union (~0.5 ms of building the discriminator map on a cold process). Held to the schema's parse by
// confirmation-policy.test.ts.
parsedByKey.set(policyKey({ kind: 'NeverConfirm' })!, { kind: 'NeverConfirm' });

/**
 * Validates a policy and fills its defaults. Throws `InvalidConfirmationPolicyError` naming the bad field
 * (unknown `kind`, threshold UNKNOWN, ...).
 */
export function parseConfirmationPolicy(value: unknown): ConfirmationPolicy {
  // Every step asks about the conversation's policy: valid flat policies are parsed once (a copy is returned,
  // so no caller can change what the next one gets). Invalid ones are parsed each time, for their error.
  const key = policyKey(value);
  const cached = key === undefined ? undefined : parsedByKey.get(key);
  if (cached !== undefined) return { ...cached };
  // Parsed once per policy (cached above): zod's compiled fast path would cost more than it saves.
  const parsed = confirmationPolicySchema.safeParse(value, { jitless: true });
  if (parsed.success) {
    if (key !== undefined && parsedByKey.size < 64) parsedByKey.set(key, { ...parsed.data });
    return parsed.data;
  }
  throw new InvalidConfirmationPolicyError(
    parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
  );
}

/** Whether the policy can ever ask for confirmation: anything but NeverConfirm (`confirmation_policy_active`). */
export function isConfirmationPolicyActive(policy: ConfirmationPolicyInput): boolean {
  return parseConfirmationPolicy(policy).kind !== 'NeverConfirm';
}

/**
 * Whether an action of the given risk needs the user's confirmation under the policy (§8.5). For ConfirmRisky an
 * UNKNOWN risk answers `confirm_unknown`; LOW/MEDIUM/HIGH confirm when at least the threshold (HIGH ≥ HIGH); any
 * other value confirms.
 */
export function shouldConfirm(policy: ConfirmationPolicyInput, risk: SecurityRisk): boolean {
  return confirmsRisk(parseConfirmationPolicy(policy), risk);
}

/** `shouldConfirm` for a policy already parsed. */
export function confirmsRisk(parsed: ConfirmationPolicy, risk: SecurityRisk): boolean {
  switch (parsed.kind) {
    case 'AlwaysConfirm':
      return true;
    case 'NeverConfirm':
      return false;
    case 'ConfirmRisky':
      if (risk === 'UNKNOWN') return parsed.confirm_unknown;
      // A value that is none of the four (from a caller not held to the type) fails closed: it asks.
      return !isOrderedRisk(risk) || isRiskier(risk, parsed.threshold);
  }
}
