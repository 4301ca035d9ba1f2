import { readFileSync } from 'node:fs';
import { UsageError } from '../errors/usage-error.js';

/** `--approval-rules <file>`: JSON, validated; a bad file is a usage error naming the file and the field. */
export function readApprovalRules(agentModule: typeof import('@x/agent'), file: string) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--approval-rules ${file}: cannot read it (${(error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--approval-rules ${file}: not JSON (${(error as Error).message})`);
  }
  const parsed = agentModule.approvalRulesSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--approval-rules ${file}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data;
}
