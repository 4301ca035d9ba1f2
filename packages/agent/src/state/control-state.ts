import { z } from 'zod';

/**
 * The agent in control of a conversation, as the `active_agent` state update records it (`transfer_to_agent`):
 * its name among the conversation's agents and why control passed to it. Absent: the agent the conversation was
 * created with.
 */
export const activeAgentSchema = z.object({
  name: z.string().min(1),
  reason: z.string().optional(),
});
export type ActiveAgent = z.infer<typeof activeAgentSchema>;

/** The value of an `escalation` state update: why a sub-agent (`agent`, its id) stopped its parent's run. */
export const escalationValueSchema = z.object({
  reason: z.string(),
  agent: z.string().optional(),
});

/** The last escalation folded into the state, with the index of the event that recorded it. */
export const escalationSchema = escalationValueSchema.extend({
  event_index: z.number().int().nonnegative(),
});
export type Escalation = z.infer<typeof escalationSchema>;
