import type { CliContext } from '../context.js';
import { ExitCode } from '../errors.js';
import { resolveConversation } from '../resolve-conversation.js';

/** `x eval promote <conversation> --suite <file>`: the conversation becomes a case of the suite. */
export async function evalPromoteCommand(
  context: CliContext,
  input: string,
  options: { suite: string; id?: string; dataDir?: string },
): Promise<number> {
  const { promoteConversation } = await import('@x/agent');
  const source = resolveConversation(input, { dataDir: options.dataDir });
  const added = await promoteConversation({ location: source.location, suitePath: options.suite, id: options.id });
  const c = context.output.colors;
  context.output.line(
    `${c.green('added')} case ${c.cyan(added.id)} to ${options.suite} (${added.scorers.map((scorer) => scorer.type).join(', ')})`,
  );
  return ExitCode.ok;
}
