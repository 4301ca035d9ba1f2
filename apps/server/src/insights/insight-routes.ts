import { type AnyEvent, eventToJson } from '@x/events';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { conversationParamsSchema } from '../api/request-schemas.js';
import { CONVERSATION_ERRORS, errorResponses } from '../api/response-schemas.js';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { ConversationNotFoundError } from '../conversations/errors/conversation-not-found-error.js';
import type { ForkRecord } from '../conversations/memory-conversation-index.js';
import { conversationHex, hyphenate } from '../internal/conversation-ids.js';
import { branchGraph, type GraphEventInput } from './branch-graph.js';
import {
  branchesResponseSchema,
  stepsResponseSchema,
  subConversationEventsSchema,
  subConversationParamsSchema,
} from './insight-schemas.js';
import { type StepEventInput, stepUsage } from './step-usage.js';
import { readSubConversationEvents } from './sub-conversation-log.js';

const tags = ['conversations'];
const LABEL_LENGTH = 80;

/** Where the forks of a conversation are looked up (the single server's in-memory index, or PostgreSQL's table). */
export interface ForkLookup {
  forksOf(sourceHex: string): ForkRecord[] | Promise<ForkRecord[]>;
}

/**
 * What a segment starting with `event` is called: a message's first text, prefixed with who said it, or the
 * tool an action calls; undefined for other kinds (the segment takes the next label in it).
 */
function labelOf(event: AnyEvent): string | undefined {
  const record = event as unknown as Record<string, unknown>;
  if (record.kind === 'ActionEvent' && typeof record.tool_name === 'string') return `agent → ${record.tool_name}`;
  if (record.kind !== 'MessageEvent') return undefined;
  const message = record.llm_message as { content?: unknown } | undefined;
  const parts = Array.isArray(message?.content) ? (message.content as { type?: unknown; text?: unknown }[]) : [];
  const text = parts.find((part) => part?.type === 'text' && typeof part.text === 'string')?.text as string | undefined;
  if (text === undefined) return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  const clipped = line.length > LABEL_LENGTH ? `${line.slice(0, LABEL_LENGTH - 1)}…` : line;
  return `${String(record.source ?? '')}: ${clipped}`;
}

/** The tree of a log; HEAD is `leaf` when given, else (a log without a recorded HEAD) its last node. */
function treeOf(events: readonly AnyEvent[], head: { leaf?: string | undefined; empty?: boolean }) {
  const inputs: GraphEventInput[] = events.map((event) => ({
    id: event.id,
    kind: event.kind,
    parent_id: event.parent_id,
    label: labelOf(event),
  }));
  const lastNode = inputs.findLast((event) => event.kind !== 'ConversationStateUpdateEvent');
  const leaf = head.empty === true ? undefined : (head.leaf ?? lastNode?.id);
  return { leaf, ...branchGraph(inputs, leaf) };
}

/**
 * x's own read-only routes for the viewer's pictures (the reference has none): the conversation's tree with
 * its forks and sub-agents, tokens and cost per LLM response, and a sub-agent conversation's events.
 */
export function registerInsightRoutes(
  fastify: FastifyInstance,
  manager: ConversationManager,
  forks: ForkLookup | undefined,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/conversations/:conversation_id/branches',
    {
      schema: {
        tags,
        operationId: 'getConversationBranches',
        summary: 'The event tree folded into branch segments, with the forks and the sub-agent conversations',
        params: conversationParamsSchema,
        response: { 200: branchesResponseSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const managed = await manager.require(request.params.conversation_id);
      const conversation = await managed.open();
      const log = conversation.log;
      const events = log.length === 0 ? [] : await log.range(0, log.length);
      const state = conversation.state;
      const tree = treeOf(events, { leaf: state.leaf_event_id ?? undefined, empty: state.head_is_empty === true });
      await managed.refreshSubConversations();
      const info = managed.fullState();
      const subIds = (info.sub_conversation_ids as string[] | undefined) ?? [];
      const subConversations = await Promise.all(
        subIds.map(async (subId) => {
          const subTree = treeOf(await readSubConversationEvents(manager.store, managed.hex, subId), {});
          return { conversation_id: subId, leaf_event_id: subTree.leaf ?? null, segments: subTree.segments };
        }),
      );
      return {
        conversation_id: managed.id,
        title: typeof info.title === 'string' ? info.title : null,
        execution_status: String(info.execution_status ?? 'idle'),
        leaf_event_id: tree.leaf ?? null,
        segments: tree.segments,
        forked_from_conversation_id: managed.meta.forked_from_conversation_id ?? null,
        forked_from_event_id: managed.meta.forked_from_event_id ?? null,
        forks: ((await forks?.forksOf(managed.hex)) ?? []).map((fork) => ({
          ...fork,
          segment_id: fork.from_event_id === null ? null : (tree.segmentOf(fork.from_event_id) ?? null),
        })),
        sub_conversations: subConversations,
      };
    },
  );

  app.get(
    '/api/conversations/:conversation_id/steps',
    {
      schema: {
        tags,
        operationId: 'getConversationSteps',
        summary: 'Tokens and cost of every LLM response of the conversation (all branches), in log order',
        params: conversationParamsSchema,
        response: { 200: stepsResponseSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const managed = await manager.require(request.params.conversation_id);
      const log = (await managed.open()).log;
      const events = log.length === 0 ? [] : await log.range(0, log.length);
      return {
        conversation_id: managed.id,
        steps: stepUsage(events.map((event) => eventToJson(event) as unknown as StepEventInput)),
      };
    },
  );

  app.get(
    '/api/conversations/:conversation_id/sub_conversations/:sub_conversation_id/events',
    {
      schema: {
        tags: ['events'],
        operationId: 'getSubConversationEvents',
        summary: "Every event of one of the conversation's sub-agent conversations, in log order (read-only)",
        params: subConversationParamsSchema,
        response: { 200: subConversationEventsSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const managed = await manager.require(request.params.conversation_id);
      await managed.refreshSubConversations();
      const childHex = conversationHex(request.params.sub_conversation_id);
      const subIds = (managed.fullState().sub_conversation_ids as string[] | undefined) ?? [];
      // Only a child the parent lists: the id never becomes a path before it is known to be one of them.
      if (childHex === undefined || !subIds.includes(hyphenate(childHex))) {
        throw new ConversationNotFoundError(request.params.sub_conversation_id);
      }
      const events = await readSubConversationEvents(manager.store, managed.hex, childHex);
      return {
        conversation_id: hyphenate(childHex),
        parent_conversation_id: managed.id,
        items: events.map((event) => eventToJson(event) as Record<string, unknown>),
      };
    },
  );
}
