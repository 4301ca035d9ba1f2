import { z } from 'zod';

/**
 * Action and observation kinds the reference defines and we also produce (§4.4). The agent package
 * registers its own tool kinds (terminal, file editor) on top of these.
 */

/** `finish`: the agent declares the task done. */
export const finishActionSchema = z.object({ message: z.string() });
export type FinishAction = z.infer<typeof finishActionSchema> & { kind: 'FinishAction' };

/** `think`: the agent records a thought; nothing is executed. */
export const thinkActionSchema = z.object({ thought: z.string() });
export type ThinkAction = z.infer<typeof thinkActionSchema> & { kind: 'ThinkAction' };

/** FinishObservation and ThinkObservation add no fields to the base observation. */
export const finishObservationSchema = z.object({});
export const thinkObservationSchema = z.object({});

/** The text of a ThinkObservation, as the reference writes it. */
export const THINK_OBSERVATION_TEXT = 'Your thought has been logged.';
