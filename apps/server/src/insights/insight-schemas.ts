import { z } from 'zod';
import { branchSegmentSchema } from './branch-graph.js';
import { stepUsageSchema } from './step-usage.js';

/** One conversation's tree: its segments and HEAD. */
const treeSchema = z.object({
  conversation_id: z.string(),
  /** HEAD: the event the next one is appended after (null: empty HEAD). */
  leaf_event_id: z.string().nullable(),
  segments: z.array(branchSegmentSchema),
});

export const branchesResponseSchema = treeSchema
  .extend({
    title: z.string().nullable(),
    execution_status: z.string(),
    forked_from_conversation_id: z.string().nullable(),
    forked_from_event_id: z.string().nullable(),
    /** Conversations forked from this one (known on a single server; empty with a shared PostgreSQL backend). */
    forks: z.array(
      z.object({
        conversation_id: z.string(),
        from_event_id: z.string().nullable(),
        /** The segment of this conversation holding `from_event_id` (null when the event is not in its log). */
        segment_id: z.string().nullable(),
      }),
    ),
    /** The sub-agents' conversations (`<id>/subagents/<child>`), each with its own tree. */
    sub_conversations: z.array(treeSchema),
  })
  .describe("The conversation's tree: branch segments, HEAD, forks and sub-agent conversations");
export type BranchesResponse = z.infer<typeof branchesResponseSchema>;

export const stepsResponseSchema = z
  .object({ conversation_id: z.string(), steps: z.array(stepUsageSchema) })
  .describe('Tokens and cost of every LLM response, in log order');

export const subConversationParamsSchema = z.object({
  conversation_id: z.string().min(1).max(64),
  sub_conversation_id: z.string().min(1).max(64),
});

export const subConversationEventsSchema = z
  .object({
    conversation_id: z.string(),
    parent_conversation_id: z.string(),
    /** Every event of the sub-conversation, in log order (sub-agent runs are short). */
    items: z.array(z.record(z.string(), z.unknown())),
  })
  .describe("The sub-agent conversation's events");
