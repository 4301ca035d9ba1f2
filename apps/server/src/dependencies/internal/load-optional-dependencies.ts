import {
  type LoadedOptionalDependencies,
  loadOptionalDependencies as loadWith,
  type OptionalDependencyLoaders,
} from '@x/store/optional-dependency';
import { MissingDependencyError } from '../missing-dependency-error.js';
import { type OptionalDependency, optionalDependencies } from './optional-dependencies.js';

/** Loaders keyed by the server's own optional peers only. */
type Loaders = { [Name in OptionalDependency]?: () => Promise<unknown> };

/**
 * Runs every loader (a dynamic `import()` of the package it is keyed by) and, when some of those packages are not
 * installed, throws one `MissingDependencyError` naming all of them, so that one install command fixes it. Any
 * other failure is thrown unchanged (the shared rule of `@x/store/optional-dependency`).
 */
export function loadOptionalDependencies<L extends OptionalDependencyLoaders>(
  feature: string,
  loaders: L & Loaders,
): Promise<LoadedOptionalDependencies<L>> {
  return loadWith(loaders, (packageNames, cause) => {
    const packages: Partial<Record<OptionalDependency, string>> = {};
    for (const name of packageNames as readonly OptionalDependency[]) packages[name] = optionalDependencies[name];
    return new MissingDependencyError({ packages, feature, cause });
  });
}
