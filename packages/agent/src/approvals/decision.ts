import { z } from 'zod';

/** Content of a substituted result: a string (one text part) or text/image parts, as a tool returns them. */
const resultContentSchema = z.union([
  z.string(),
  z.array(
    z.union([
      z.object({ type: z.literal('text'), text: z.string() }).loose(),
      z.object({ type: z.literal('image'), image_urls: z.array(z.string()) }).loose(),
    ]),
  ),
]);

/**
 * What a person (or a rule) decides about one action waiting for confirmation.
 * - `approve`: it runs (once) on the next run; with `arguments`, it runs with those instead (validated against
 *   the tool's schema). It carries no `reason` (refused with `InvalidDecisionError`): the reference records a reason
 *   for a rejection only.
 * - `deny`: it does not run; the model sees `reason` (a UserRejectObservation's `rejection_reason`).
 * - `substitute`: it does not run; the model sees `result` as the tool's observation.
 */
export const approvalDecisionSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('approve'),
    /** Edited arguments: the action runs with these (a new ActionEvent in the log, see the README). */
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
  z.strictObject({ kind: z.literal('deny'), reason: z.string().min(1) }),
  z.strictObject({
    kind: z.literal('substitute'),
    /** The tool's result as `execute` would return it: `content`, `is_error`, and the tool's extra fields. */
    result: z.object({ content: resultContentSchema, is_error: z.boolean().optional() }).loose(),
  }),
]);
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/**
 * Why a denial whose reason is blank (whitespace only) is refused, as an empty one is: the reason is the
 * UserRejectObservation's `rejection_reason`, the one thing the model is told of why (`Action rejected: <reason>`),
 * and the reference always gives it one (`User rejected the action` where none is given). Refused rather than
 * replaced, as a decision is recorded as it was given.
 */
export const BLANK_DENIAL_REASON =
  'a denial\'s reason is blank: it is the rejection_reason the model is told ("Action rejected: <reason>"); give one that says why';

/**
 * One decision for one pending action, as a library call or an HTTP body gives it. Stricter than
 * `approvalDecisionSchema` (a denial's reason must not be blank): decision records written before that check keep
 * reading as they were.
 */
export const actionDecisionSchema = z
  .strictObject({
    action_id: z.string().min(1),
    decision: approvalDecisionSchema,
  })
  .superRefine(({ decision }, context) => {
    if (decision.kind === 'deny' && decision.reason.trim() === '') {
      context.addIssue({ code: 'custom', path: ['decision', 'reason'], message: BLANK_DENIAL_REASON });
    }
  });
export type ActionDecision = z.infer<typeof actionDecisionSchema>;

/**
 * The durable record of a decision, `events/.decisions/<action id>.json`, written once (the first decision wins).
 * Kept outside the event files: the reference rejects unknown fields and kinds there.
 */
export const decisionRecordSchema = z.strictObject({
  action_id: z.string(),
  tool_name: z.string(),
  tool_call_id: z.string(),
  decision: approvalDecisionSchema,
  /** Who decided: a person (`api-key:…`, a key's name, the local user), `rule:<name>`, or `run` (implicit). */
  principal: z.string().min(1),
  /** ISO 8601, from the caller's clock. */
  decided_at: z.string(),
  /** For edited arguments: the id of the ActionEvent that carries them (the one that runs). */
  replacement_action_id: z.string().optional(),
  /** For a replacement action: the action whose arguments were edited. */
  edited_from: z.string().optional(),
});
export type DecisionRecord = z.infer<typeof decisionRecordSchema>;

/** Who decides and when: every decision records both. */
export interface DecisionContext {
  /** Who decides (see `DecisionRecord.principal`). */
  principal: string;
  /** Clock for `decided_at`; default `() => new Date()`. */
  now?: () => Date;
}
