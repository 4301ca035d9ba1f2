import { MissingDependencyError } from '../missing-dependency-error.js';
import { type OptionalDependency, optionalDependencies } from './optional-dependencies.js';

type Loaders = { [Name in OptionalDependency]?: () => Promise<unknown> };
type Loaded<L extends Loaders> = { [Name in keyof L]: L[Name] extends () => Promise<infer T> ? T : never };

/**
 * Runs every loader (a dynamic `import()` of the package it is keyed by) and, when some of those packages are not
 * installed, throws one `MissingDependencyError` naming all of them, so that one install command fixes it. Any
 * other failure (a package there but broken, or missing one of its own dependencies) is thrown unchanged.
 */
export async function loadOptionalDependencies<L extends Loaders>(feature: string, loaders: L): Promise<Loaded<L>> {
  const names = Object.keys(loaders) as OptionalDependency[];
  const settled = await Promise.allSettled(names.map((name) => (loaders[name] as () => Promise<unknown>)()));
  const missing: Partial<Record<OptionalDependency, string>> = {};
  let missingCause: unknown;
  let otherFailure: { reason: unknown } | undefined;
  settled.forEach((result, index) => {
    if (result.status === 'fulfilled') return;
    const name = names[index] as OptionalDependency;
    if (isPackageNotFound(result.reason, name)) {
      missing[name] = optionalDependencies[name];
      missingCause ??= result.reason;
    } else {
      otherFailure ??= { reason: result.reason };
    }
  });
  if (Object.keys(missing).length > 0) {
    throw new MissingDependencyError({ packages: missing, feature, cause: missingCause });
  }
  if (otherFailure !== undefined) throw otherFailure.reason;
  return Object.fromEntries(
    names.map((name, index) => [name, (settled[index] as PromiseFulfilledResult<unknown>).value]),
  ) as Loaded<L>;
}

/** Node's resolver says `Cannot find package '<name>' imported from ...` (ESM) or `Cannot find module '<name>'`. */
export function isPackageNotFound(error: unknown, packageName: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${packageName}'`) || message.includes(`'${packageName}/`));
}
