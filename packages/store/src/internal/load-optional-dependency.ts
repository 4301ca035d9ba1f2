import { MissingDependencyError } from '../errors/missing-dependency-error.js';
import { loadOptionalDependency as loadWith } from '../optional-dependency/index.js';
import { type OptionalDependency, optionalDependencies } from './optional-dependencies.js';

/**
 * Runs `load` (a dynamic `import()` of `packageName` or one of its subpaths) and turns "that package is not
 * installed" into this package's `MissingDependencyError` naming it; any other failure is thrown unchanged
 * (the shared rule of `@x/store/optional-dependency`).
 */
export function loadOptionalDependency<T>(
  feature: string,
  packageName: OptionalDependency,
  load: () => Promise<T>,
): Promise<T> {
  return loadWith({
    packageName,
    load,
    onMissing: (cause) =>
      new MissingDependencyError({ packageName, versionRange: optionalDependencies[packageName], feature, cause }),
  });
}
