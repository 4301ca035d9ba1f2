import { loadOptionalDependency } from '../dependencies/internal/load-optional-dependency.js';

/** `@langchain/core/messages`, loaded on first use (an optional peer): `MissingDependencyError` without it. */
export async function loadLangChainMessages(): Promise<typeof import('@langchain/core/messages')> {
  return loadOptionalDependency(
    'converting events to and from LangChain messages',
    '@langchain/core',
    () => import('@langchain/core/messages'),
  );
}
