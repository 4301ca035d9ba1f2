import { createPublicKey, type KeyObject } from 'node:crypto';
import { DEFAULT_SIGNATURE_REQUIREMENT, SIGNATURE_REQUIREMENTS, verifyEventSignatures } from '@x/store';
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
        status: z.enum(['verified', 'unsigned', 'incomplete', 'invalid']),
        require: z.enum(SIGNATURE_REQUIREMENTS),
        signed: z.number().int(),
        unsigned: z.number().int(),
        unsignedPrefix: z.number().int(),
        missing: z.object({ index: z.number().int(), id: z.string(), message: z.string() }).optional(),
        signers: z.array(z.object({ did: z.string(), events: z.number().int(), firstIndex: z.number().int() })),
      })
      .describe(
        "Each event's signature (events/.chain/signatures/): the signers' did:keys, the first event whose signature does not check out, and the first event `require_signatures` says must be signed that has no signature",
      ),
  })
  .describe('The chain verification report, and the per-event signatures');

const verifyQuerySchema = z.object({
  /** Ed25519 public key (SPKI PEM) the signed chain head must verify against; optional. */
  public_key: z.string().min(1).max(4096).optional(),
  /**
   * Which events must be signed for `signatures.status` to be `verified`: `after-first-signed` (every event from the
   * first signed one on), `all`, or `none` (only the signatures present are checked).
   */
  require_signatures: z.enum(SIGNATURE_REQUIREMENTS).default(DEFAULT_SIGNATURE_REQUIREMENT),
});

/**
 * `GET /api/conversations/{conversation_id}/verify`: checks the conversation's tamper-evident event chain
 * (x's own route; the reference has none) and reports the first altered, removed, reordered or inserted
 * event. Always 200 with the report: `status` says `verified`, `unchained` or `tampered`; `signatures` checks
 * each event's signature and names the signers' did:keys, the first event whose signature does not verify and the
 * first event `require_signatures` says must be signed that has no signature (`incomplete`).
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
      const signatures = await verifyEventSignatures(
        conversation.log,
        { store: conversation.store, dir: `${conversation.directory}/events` },
        { require: request.query.require_signatures },
      );
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
