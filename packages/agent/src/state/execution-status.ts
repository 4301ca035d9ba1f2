import { z } from 'zod';

/** Execution status of a conversation (reference §8.1). */
export const executionStatusSchema = z.enum([
  'idle',
  'running',
  'paused',
  'waiting_for_confirmation',
  'finished',
  'error',
  'stuck',
  'deleting',
]);
export type ExecutionStatus = z.infer<typeof executionStatusSchema>;

/** finished, error and stuck end a run; idle does not. */
export function isTerminalStatus(status: ExecutionStatus): boolean {
  return status === 'finished' || status === 'error' || status === 'stuck';
}
