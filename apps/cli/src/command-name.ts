/**
 * How the user invoked this CLI, for the commands it suggests, so that what it prints works as printed.
 * `X_COMMAND_NAME` wins (`pnpm start` sets `pnpm x`); `pnpm x …` / `npm run x -- …` at the repository root run
 * the root package's `x` script, where a bare `x` is not on the PATH: the package manager says so in
 * `npm_lifecycle_event` (the script's name) and `npm_config_user_agent`. Otherwise the installed binary, `x`.
 */
export function commandName(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.X_COMMAND_NAME?.trim();
  if (named !== undefined && named !== '') return named;
  if (env.npm_lifecycle_event === 'x') {
    const agent = env.npm_config_user_agent ?? '';
    if (agent.startsWith('pnpm')) return 'pnpm x';
    if (agent.startsWith('yarn')) return 'yarn x';
    return 'npm run x --';
  }
  return 'x';
}

/** `text` with each command in backquotes that starts with `x ` spelt as the user invoked the CLI. */
export function withCommandName(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const name = commandName(env);
  return name === 'x' ? text : text.replaceAll('`x ', `\`${name} `);
}
