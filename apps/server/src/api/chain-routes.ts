import { createPublicKey, type KeyObject } from 'node:crypto';
import { verifyEventSignatures } from '@x/store';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import { conversationParamsSchema } from './request-schemas.js';
import { CONVERSATION_ERRORS, errorResponses } from './response-schemas.js';

/** The verification report of `verifyEventChain` (its named fields; the rest passes through). */
const chainReportSchema = z
  .looseObject({
    status: z.enum(['verified', 'unchained', 'tampered']),
    length: z.number().int(),
    chainedFrom: z.number().int().nullable(),
    signatures: z
      .looseObject({
        status: z.enum(['verified', 'unsigned', 'invalid']),
        signed: z.number().int(),
        unsigned: z.number().int(),
        signers: z.array(z.object({ did: z.string(), events: z.number().int(), firstIndex: z.number().int() })),
      })
      .describe(
        "Each event's signature (events/.chain/signatures/): the signers' did:keys and the first event whose signature does not check out",
      ),
  })
  .describe('The chain verification report, and the per-event signatures');

const verifyQuerySchema = z.object({
  /** Ed25519 public key (SPKI PEM) the signed chain head must verify against; optional. */
  public_key: z.string().min(1).max(4096).optional(),
});

/**
 * `GET /api/conversations/{conversation_id}/verify`: checks the conversation's tamper-evident event chain
 * (x's own route; the reference has none) and reports the first altered, removed, reordered or inserted
 * event. Always 200 with the report: `status` says `verified`, `unchained` or `tampered`; `signatures` checks
 * each event's signature and names the signers' did:keys and the first event whose signature does not verify.
 */
export function registerChainRoutes(fastify: FastifyInstance, manager: ConversationManager): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/conversations/:conversation_id/verify',
    {
      schema: {
        tags: ['events'],
        summary: 'Verify the tamper-evident event chain (and, with public_key, the signed head)',
        operationId: 'verifyConversationChain',
        params: conversationParamsSchema,
        querystring: verifyQuerySchema,
        response: { 200: chainReportSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const publicKey = parsePublicKey(request.query.public_key);
      const conversation = await (await manager.require(request.params.conversation_id)).open();
      // Any log verifies its own chain (event files and their claims, or PostgreSQL rows and their links).
      // The report's named fields are checked against chainReportSchema when the response is serialized.
      const report = await conversation.log.verifyChain(publicKey === undefined ? {} : { publicKey });
      // Signature records live in the conversation's store (files, or the files table), whatever holds the events.
      const signatures = await verifyEventSignatures(conversation.log, {
        store: conversation.store,
        dir: `${conversation.directory}/events`,
      });
      return { ...report, signatures } as unknown as z.output<typeof chainReportSchema>;
    },
  );
}

function parsePublicKey(pem: string | undefined): KeyObject | undefined {
  if (pem === undefined) return undefined;
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType === 'ed25519') return key;
  } catch {
    // reported below
  }
  throw new InvalidRequestError('public_key must be an Ed25519 public key in SPKI PEM form');
}
