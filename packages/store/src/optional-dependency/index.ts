// `@x/store/optional-dependency`: loading an optional peer dependency with a dynamic `import()`, and reporting it
// with an install command when it is not installed. One implementation for every @x package; each passes its own
// error (its `MissingDependencyError`, under its own error base), so a user catches the package's error as before.
export { isPackageNotFound } from './is-package-not-found.js';
export {
  type LoadedOptionalDependencies,
  type LoadOptionalDependencyOptions,
  loadOptionalDependencies,
  loadOptionalDependency,
  type MissingDependenciesErrorFactory,
  type OptionalDependencyLoaders,
} from './load-optional-dependencies.js';
