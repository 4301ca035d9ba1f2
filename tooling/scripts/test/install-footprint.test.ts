// What installing @x costs a consumer, from the packed tarballs in empty npm projects: an agent with one provider
// SDK, and the server. Heavy integrations (the other provider SDKs, MCP, the OpenTelemetry SDK, pg, the AWS SDK)
// are optional peer dependencies: not installed unless asked for, and named with their install command by a
// MissingDependencyError when a feature needing one is used without it. The figures are printed for the record.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Consumer,
  createConsumer,
  installedBytes,
  installedPackages,
  installScriptWarnings,
  packTarballs,
  sh,
  typecheck,
} from './support/consumer-project.js';

let work: string;
let tarballs: Map<string, string>;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'x-footprint-'));
  tarballs = packTarballs(work);
}, 600_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true, maxRetries: 5 });
}, 300_000);

function report(name: string, consumer: Consumer): { packages: number; megabytes: number } {
  const packages = installedPackages(consumer.dir).length;
  const megabytes = Math.round(installedBytes(consumer.dir) / 1e5) / 10;
  console.log(`install footprint of ${name}: ${packages} packages, ${megabytes} MB in node_modules`);
  return { packages, megabytes };
}

function run(consumer: Consumer, file: string, source: string): string {
  writeFileSync(join(consumer.dir, file), source);
  return sh(process.execPath, [file], consumer.dir).trim();
}

/** Prints `<error name> <code> <whether the message names the package and its install command>`. */
const printError = (packageName: string) =>
  `(error) => console.log(error.name, error.code, error.message.includes("'${packageName}'") && (error.message.includes('npm install ${packageName}@') || error.message.includes("npm install '${packageName}@")))`;

describe('@x/events + @x/store + @x/agent with one provider SDK (@anthropic-ai/sdk)', () => {
  let consumer: Consumer;
  beforeAll(() => {
    consumer = createConsumer(work, tarballs, {
      name: 'agent',
      packages: ['@x/events', '@x/store', '@x/agent'],
      extra: ['@anthropic-ai/sdk@^1.12.0'],
    });
  }, 600_000);

  it('installs fewer than 30 packages and none of the other SDKs', () => {
    const { packages } = report('@x/events + @x/store + @x/agent + @anthropic-ai/sdk', consumer);
    expect(packages).toBeLessThan(30);
    const installed = installedPackages(consumer.dir);
    for (const optional of ['openai', '@google/genai', '@modelcontextprotocol/sdk', 'protobufjs']) {
      expect(installed, optional).not.toContain(`node_modules/${optional}`);
    }
  }, 300_000);

  it('prints no warning about install scripts', () => {
    expect(installScriptWarnings(consumer.installLog)).toEqual([]);
  }, 300_000);

  it('typechecks with skipLibCheck false without the other SDKs', () => {
    writeFileSync(
      join(consumer.dir, 'check.ts'),
      [
        "import { createAgent, createLLM, createMcpToolset, createOpenAILLM, MissingDependencyError } from '@x/agent';",
        'export const used = [createAgent, createLLM, createMcpToolset, createOpenAILLM, MissingDependencyError];',
      ].join('\n'),
    );
    typecheck(consumer.dir);
  }, 300_000);

  it('uses the installed SDK: the anthropic provider gets as far as the network', () => {
    // Port 9 of loopback refuses the connection: the SDK loaded and tried to send.
    const output = run(
      consumer,
      'anthropic.mjs',
      "import { createLLM, MissingDependencyError } from '@x/agent';\n" +
        "const llm = createLLM({ model: 'anthropic/claude-sonnet-4-6', apiKey: 'k', baseURL: 'http://127.0.0.1:9', maxRetries: 0 });\n" +
        "llm.complete({ messages: [] }).then(() => console.log('answered'), (error) => console.log(MissingDependencyError.isInstance(error) ? 'missing' : 'network'));\n",
    );
    expect(output).toBe('network');
  }, 300_000);

  it('names the package to install when a provider, MCP or an A2A sub-agent is used without its SDK', () => {
    const llm = (model: string, packageName: string) =>
      `await createLLM({ model: '${model}', apiKey: 'k', baseURL: 'http://127.0.0.1:9', maxRetries: 0 }).complete({ messages: [] }).then(() => console.log('answered'), ${printError(packageName)});\n`;
    const output = run(
      consumer,
      'missing.mjs',
      "import { createA2aSubAgentType, createLLM, createMcpToolset } from '@x/agent';\n" +
        llm('gpt-4o-mini', 'openai') +
        llm('gemini/gemini-2.5-flash', '@google/genai') +
        "await createMcpToolset({ mcpServers: { echo: { command: 'true' } } }).start().then(() => console.log('started'), " +
        `${printError('@modelcontextprotocol/sdk')});\n` +
        "await createA2aSubAgentType({ url: 'http://127.0.0.1:9' }).connect().then(() => console.log('connected'), " +
        `${printError('@a2a-js/sdk')});\n`,
    );
    expect(output.split('\n')).toEqual([
      'MissingDependencyError missing_dependency true',
      'MissingDependencyError missing_dependency true',
      'MissingDependencyError missing_dependency true',
      'MissingDependencyError missing_dependency true',
    ]);
  }, 300_000);
});

describe('@x/server (and the packages it depends on)', () => {
  let consumer: Consumer;
  beforeAll(() => {
    consumer = createConsumer(work, tarballs, {
      name: 'server',
      packages: ['@x/events', '@x/client', '@x/store', '@x/store-postgres', '@x/agent', '@x/server'],
    });
  }, 600_000);

  it('installs fewer than 120 packages and under 60 MB, without the OpenTelemetry SDK, pg or any LLM SDK', () => {
    // Before the SDKs became optional: 255 packages, 201 MB.
    const { packages, megabytes } = report('@x/server', consumer);
    expect(packages).toBeLessThan(120);
    expect(megabytes).toBeLessThan(60);
    const installed = installedPackages(consumer.dir);
    for (const optional of [
      '@opentelemetry/sdk-trace-base',
      '@opentelemetry/exporter-trace-otlp-http',
      'pg',
      'openai',
      '@anthropic-ai/sdk',
      '@google/genai',
      '@modelcontextprotocol/sdk',
      '@aws-sdk/client-s3',
    ]) {
      expect(installed, optional).not.toContain(`node_modules/${optional}`);
    }
  }, 300_000);

  it('prints no warning about install scripts', () => {
    expect(installScriptWarnings(consumer.installLog)).toEqual([]);
  }, 300_000);

  it('typechecks with skipLibCheck false without the optional peers', () => {
    writeFileSync(
      join(consumer.dir, 'check.ts'),
      [
        "import { connectPostgres } from '@x/store-postgres';",
        "import { MissingDependencyError, setupTelemetryFromEnv, startServer } from '@x/server';",
        'export const used = [connectPostgres, MissingDependencyError, setupTelemetryFromEnv, startServer];',
      ].join('\n'),
    );
    typecheck(consumer.dir);
  }, 300_000);

  it('names the packages to install for OTLP export and PostgreSQL', () => {
    const output = run(
      consumer,
      'missing.mjs',
      "import { setupTelemetryFromEnv } from '@x/server';\n" +
        "import { connectPostgres } from '@x/store-postgres';\n" +
        // The exporters read the process's OTEL_* variables themselves.
        "process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9';\n" +
        "await setupTelemetryFromEnv().then(() => console.log('exporting'), " +
        "(error) => console.log(error.name, error.code, error.packageNames.join(','), error.installCommand.startsWith('npm install @opentelemetry/')));\n" +
        "await connectPostgres({ url: 'postgres://127.0.0.1:9/x' }).then(() => console.log('connected'), " +
        `${printError('pg')});\n`,
    );
    expect(output.split('\n')).toEqual([
      'MissingDependencyError missing_dependency @opentelemetry/core,@opentelemetry/resources,@opentelemetry/context-async-hooks,@opentelemetry/sdk-trace-base,@opentelemetry/exporter-trace-otlp-http,@opentelemetry/sdk-metrics,@opentelemetry/exporter-metrics-otlp-http true',
      'MissingDependencyError missing_dependency true',
    ]);
  }, 300_000);
});

describe('@x/client and @x/react (the browser packages)', () => {
  let consumer: Consumer;
  beforeAll(() => {
    consumer = createConsumer(work, tarballs, {
      name: 'browser',
      packages: ['@x/events', '@x/client', '@x/react'],
      extra: ['react@^19.0.0'],
    });
  }, 600_000);

  it('installs @x/events, zod and react, and nothing of the server (no fastify, no ws)', () => {
    const { packages } = report('@x/client + @x/react', consumer);
    expect(packages).toBeLessThan(10);
    const installed = installedPackages(consumer.dir);
    for (const server of ['fastify', 'ws', '@x/server', '@x/store']) {
      expect(installed).not.toContain(`node_modules/${server}`);
    }
  });

  it('on Node 20, without ws, streaming fails with an error naming ws', () => {
    const output = run(
      consumer,
      'no-ws.mjs',
      "import { streamConversationEvents } from '@x/client';\n" +
        "const stream = streamConversationEvents('http://127.0.0.1:9', 'c', { fromIndex: 0, onEvent() {} });\n" +
        'await stream.done.then(() => console.log("done"), (error) => console.log(error.name, error.code, error.message.includes("npm install ws")));\n',
    );
    expect(output).toEqual(
      typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'function'
        ? expect.stringMatching(/^RemoteRequestError /)
        : 'WebSocketUnavailableError websocket_unavailable true',
    );
  }, 300_000);
});
