import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { downloadHeaders } from '../internal/download-headers.js';
import { conversationIdSchema } from './request-schemas.js';
import { CONVERSATION_ERRORS, errorResponses } from './response-schemas.js';

const tags = ['conversations'];
const params = z.object({ conversation_id: conversationIdSchema });
const artifactParams = z.object({ conversation_id: conversationIdSchema, name: z.string().min(1).max(200) });

/** The session state and the latest version of each artifact (x additions: orxhestra's state and artifact deltas). */
const sessionSchema = z
  .object({
    state: z.record(z.string(), z.unknown()),
    artifacts: z.record(z.string(), z.number().int().positive()),
  })
  .describe('The session state and the latest version of each artifact');
const sessionUpdateSchema = z.strictObject({
  /** Each key set to its value; `null` removes the key. Recorded as one `state_delta` state update. */
  state_delta: z.record(z.string(), z.unknown()),
});
const artifactQuerySchema = z.object({ version: z.coerce.number().int().positive().optional() });
const saveArtifactSchema = z
  .strictObject({
    text: z.string().optional(),
    base64: z.base64().optional(),
    mime_type: z.string().min(1).max(200).optional(),
  })
  .refine((body) => (body.text === undefined) !== (body.base64 === undefined), {
    message: 'give exactly one of text and base64',
  });
const savedArtifactSchema = z
  .object({ name: z.string(), version: z.number().int().positive() })
  .describe('The artifact version written');

/**
 * Session state and artifacts (x additions): read and change the key/value session state, list artifacts,
 * download any version of one (with its content type), save a new version (text or base64 bytes).
 */
export function registerSessionRoutes(fastify: FastifyInstance, manager: ConversationManager): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const errors = errorResponses(CONVERSATION_ERRORS);

  app.get(
    '/api/conversations/:conversation_id/session',
    {
      schema: {
        tags,
        operationId: 'getConversationSession',
        summary: 'The session state and the latest version of each artifact',
        params,
        response: { 200: sessionSchema, ...errors },
      },
    },
    async (request) => {
      const conversation = await (await manager.require(request.params.conversation_id)).open();
      return { state: { ...conversation.session.state }, artifacts: { ...conversation.session.artifacts } };
    },
  );

  app.patch(
    '/api/conversations/:conversation_id/session',
    {
      schema: {
        tags,
        operationId: 'updateConversationSession',
        summary: 'Change the session state (a state_delta: null removes a key)',
        params,
        body: sessionUpdateSchema,
        response: { 200: sessionSchema, ...errors },
      },
    },
    async (request) => {
      const conversation = await (await manager.require(request.params.conversation_id)).open();
      await conversation.session.update(request.body.state_delta);
      return { state: { ...conversation.session.state }, artifacts: { ...conversation.session.artifacts } };
    },
  );

  app.get(
    '/api/conversations/:conversation_id/artifacts/:name',
    {
      schema: {
        tags,
        operationId: 'getConversationArtifact',
        summary: 'Download a version of an artifact (the latest without ?version); 404 for an unknown one',
        params: artifactParams,
        querystring: artifactQuerySchema,
        response: { 200: z.any().describe('The artifact, with its content type'), ...errors },
      },
    },
    async (request, reply) => {
      const conversation = await (await manager.require(request.params.conversation_id)).open();
      const artifact = await conversation.session.loadArtifact(request.params.name, request.query.version);
      // An artifact's bytes and type are whatever the agent (or a client) saved: a download, as a workspace file is.
      return reply
        .header('content-type', artifact.mimeType)
        .headers(downloadHeaders(request.params.name))
        .header('x-artifact-version', String(artifact.version))
        .send(Buffer.from(artifact.data));
    },
  );

  app.post(
    '/api/conversations/:conversation_id/artifacts/:name',
    {
      schema: {
        tags,
        operationId: 'saveConversationArtifact',
        summary: 'Save the next version of an artifact: text, or base64 bytes (201 with its version)',
        params: artifactParams,
        body: saveArtifactSchema,
        response: { 201: savedArtifactSchema, ...errors },
      },
    },
    async (request, reply) => {
      const conversation = await (await manager.require(request.params.conversation_id)).open();
      const { text, base64, mime_type } = request.body;
      const data = text ?? new Uint8Array(Buffer.from(base64 ?? '', 'base64'));
      const saved = await conversation.session.saveArtifact(request.params.name, data, {
        ...(mime_type === undefined ? {} : { mimeType: mime_type }),
      });
      return reply.code(201).send(saved);
    },
  );
}
