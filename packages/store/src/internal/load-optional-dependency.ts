import { MissingDependencyError } from '../errors/missing-dependency-error.js';
import { type OptionalDependency, optionalDependencies } from './optional-dependencies.js';

/**
 * Runs `load` (a dynamic `import()` of `packageName` or one of its subpaths) and turns "that package is not
 * installed" into a `MissingDependencyError` naming it. Any other failure (the package is there but broken, or
 * one of its own dependencies is missing) is thrown unchanged: telling the user to install what they have
 * would mislead.
 */
export async function loadOptionalDependency<T>(
  feature: string,
  packageName: OptionalDependency,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isPackageNotFound(error, packageName)) throw error;
    throw new MissingDependencyError({
      packageName,
      versionRange: optionalDependencies[packageName],
      feature,
      cause: error,
    });
  }
}

/** Node's resolver says `Cannot find package '<name>' imported from ...` (ESM) or `Cannot find module '<name>'`. */
export function isPackageNotFound(error: unknown, packageName: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${packageName}'`) || message.includes(`'${packageName}/`));
}
