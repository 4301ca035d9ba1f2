import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ServerError } from '../../errors.js';
import { MissingDependencyError } from '../missing-dependency-error.js';
import { loadOptionalDependencies } from './load-optional-dependencies.js';
import { optionalDependencies } from './optional-dependencies.js';

/** Node's own error for importing a package that is not installed, as it would read for `name`. */
async function notInstalledError(name: string): Promise<Error> {
  const missing = `x-missing-package-${process.pid}`;
  const real = (await import(/* @vite-ignore */ missing).catch((error: unknown) => error)) as Error & { code: string };
  return Object.assign(new Error(real.message.replaceAll(missing, name)), { code: real.code });
}

describe('loadOptionalDependencies', () => {
  it('names every missing package in one MissingDependencyError with one install command', async () => {
    const traceMissing = await notInstalledError('@opentelemetry/sdk-trace-base');
    const exporterMissing = await notInstalledError('@opentelemetry/exporter-trace-otlp-http');
    const error = await loadOptionalDependencies('OTLP export (traces)', {
      '@opentelemetry/core': () => import('@opentelemetry/core'),
      '@opentelemetry/sdk-trace-base': () => Promise.reject(traceMissing),
      '@opentelemetry/exporter-trace-otlp-http': () => Promise.reject(exporterMissing),
    }).catch((thrown: unknown) => thrown);
    expect(MissingDependencyError.isInstance(error) && ServerError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'missing_dependency',
      packageNames: ['@opentelemetry/sdk-trace-base', '@opentelemetry/exporter-trace-otlp-http'],
      installCommand: `npm install @opentelemetry/sdk-trace-base@${optionalDependencies['@opentelemetry/sdk-trace-base']} @opentelemetry/exporter-trace-otlp-http@${optionalDependencies['@opentelemetry/exporter-trace-otlp-http']}`,
    });
    expect((error as Error).message).toMatch(
      /^OTLP export \(traces\) needs '@opentelemetry\/sdk-trace-base', '@opentelemetry\/exporter-trace-otlp-http', optional peer dependencies of @x\/server that are not installed: npm install /,
    );
  });

  it('lets any other failure through', async () => {
    const cause = await notInstalledError('@opentelemetry/otlp-transformer');
    await expect(
      loadOptionalDependencies('OTLP export (traces)', {
        '@opentelemetry/exporter-trace-otlp-http': () => Promise.reject(cause),
      }),
    ).rejects.toBe(cause);
  });

  it('returns every module, keyed by package, when all are installed', async () => {
    const loaded = await loadOptionalDependencies('OTLP export (traces)', {
      '@opentelemetry/core': () => import('@opentelemetry/core'),
      '@opentelemetry/resources': () => import('@opentelemetry/resources'),
    });
    expect(typeof loaded['@opentelemetry/core'].W3CTraceContextPropagator).toBe('function');
    expect(typeof loaded['@opentelemetry/resources'].resourceFromAttributes).toBe('function');
  });

  it('lists the optional peers the server imports itself, at the ranges of package.json', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      devDependencies: Record<string, string>;
    };
    for (const [name, range] of Object.entries(optionalDependencies)) {
      expect(manifest.peerDependencies[name], name).toBe(range);
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(manifest.devDependencies, name).toHaveProperty([name]);
    }
  });
});
