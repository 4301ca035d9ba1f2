import { InvalidUsageIdError } from './errors/invalid-usage-id-error.js';

/**
 * `usageId`, or an `InvalidUsageIdError` for the one name `usage_to_metrics` cannot hold as a key (`__proto__`).
 * Checked where an LLM is made and again where a response is recorded (an LLM object may be written by hand).
 */
export function checkUsageId(usageId: string): string {
  if (usageId === '__proto__') throw new InvalidUsageIdError(usageId);
  return usageId;
}

/** The usage id an LLM spends under when it is given none. */
export const DEFAULT_USAGE_ID = 'default';

/**
 * `usageId` for spending a tool records itself (`ToolConversation.recordUsage`: a sub-agent's), or an
 * `InvalidUsageIdError`: for what no usage id may be (see `checkUsageId`; a tool written in JavaScript may pass
 * anything), and for `default` and `ownIds` (the ids the conversation's own models spend under: each agent's LLM and
 * condenser, a switched model, a side call's model such as `generateTitle`'s `llm`). A record sets an id's entry
 * whole, so a tool's record under one of those would replace that model's spending with its own, and every budget
 * would read the tool's figure for it.
 */
export function checkToolUsageId(usageId: unknown, ownIds: readonly string[]): string {
  if (typeof usageId !== 'string') {
    throw new InvalidUsageIdError(String(usageId), `expected a string, got ${typeof usageId}`);
  }
  checkUsageId(usageId);
  if (usageId === DEFAULT_USAGE_ID || ownIds.includes(usageId)) {
    throw new InvalidUsageIdError(
      usageId,
      "one of the conversation's own models spends under it; a tool records its spending under an id of its own (e.g. delegate:<id>)",
    );
  }
  return usageId;
}
