import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MissingDependencyError } from '../missing-dependency-error.js';
import { loadOptionalDependency } from './load-optional-dependency.js';
import { optionalDependencies } from './optional-dependencies.js';

const missing = `x-missing-package-${process.pid}`;

/** Node's own error for importing a package that is not installed. */
async function notInstalledError(name: string): Promise<Error & { code?: string }> {
  const real = await import(/* @vite-ignore */ missing).then(
    () => {
      throw new Error(`${missing} is installed`);
    },
    (error: Error & { code?: string }) => error,
  );
  return Object.assign(new Error(real.message.replaceAll(missing, name)), { code: real.code });
}

describe('loadOptionalDependency', () => {
  it('turns a missing SDK into a MissingDependencyError naming it and its install command', async () => {
    const cause = await notInstalledError('@anthropic-ai/sdk');
    const error = await loadOptionalDependency('The anthropic provider', '@anthropic-ai/sdk', () =>
      Promise.reject(cause),
    ).catch((thrown: unknown) => thrown);
    expect(MissingDependencyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'MissingDependencyError',
      code: 'missing_dependency',
      packageName: '@anthropic-ai/sdk',
      versionRange: optionalDependencies['@anthropic-ai/sdk'],
      installCommand: `npm install @anthropic-ai/sdk@${optionalDependencies['@anthropic-ai/sdk']}`,
      cause,
    });
    expect((error as Error).message).toBe(
      `The anthropic provider needs '@anthropic-ai/sdk', an optional peer dependency of @x/agent that is not installed: npm install @anthropic-ai/sdk@${optionalDependencies['@anthropic-ai/sdk']}`,
    );
  });

  it('quotes a range a shell would split: the printed command installs a supported openai as it reads', async () => {
    const cause = await notInstalledError('openai');
    const error = (await loadOptionalDependency('The openai provider', 'openai', () => Promise.reject(cause)).catch(
      (thrown: unknown) => thrown,
    )) as MissingDependencyError;
    expect(error.versionRange).toBe('^6.49.0 || ^7.0.0');
    expect(error.installCommand).toBe("npm install 'openai@^6.49.0 || ^7.0.0'");
    expect(error.message.endsWith(error.installCommand)).toBe(true);
  });

  it('lets any other failure through: a package missing one of its own dependencies is not reported as missing', async () => {
    const cause = await notInstalledError('protobufjs');
    await expect(
      loadOptionalDependency('The gemini provider', '@google/genai', () => Promise.reject(cause)),
    ).rejects.toBe(cause);
  });

  it('returns the module when the SDK is installed', async () => {
    const sdk = await loadOptionalDependency(
      'The anthropic provider',
      '@anthropic-ai/sdk',
      () => import('@anthropic-ai/sdk'),
    );
    expect(typeof sdk.default).toBe('function');
  });

  it('lists exactly the optional peer dependencies of package.json, at their ranges', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      devDependencies: Record<string, string>;
    };
    const optionalPeers = Object.fromEntries(
      Object.entries(manifest.peerDependencies).filter(([name]) => manifest.peerDependenciesMeta[name]?.optional),
    );
    expect(optionalPeers).toEqual(optionalDependencies);
    for (const name of Object.keys(optionalDependencies)) expect(manifest.devDependencies, name).toHaveProperty([name]);
  });
});
