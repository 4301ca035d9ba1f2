/**
 * Whether `error` is Node's resolver saying that `packageName` itself is not installed: `Cannot find package
 * '<name>' imported from ...` (ESM) or `Cannot find module '<name>'` (CommonJS), for the package or one of its
 * subpaths. A package that is there but misses one of its own dependencies names that other package, so is no.
 */
export function isPackageNotFound(error: unknown, packageName: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${packageName}'`) || message.includes(`'${packageName}/`));
}
