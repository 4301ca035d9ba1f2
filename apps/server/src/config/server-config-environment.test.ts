import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { resolveServerConfig, workspaceRootOf } from './server-config.js';
import { ServerConfigError } from './server-config-error.js';

// What `x-server` makes of its environment: each documented variable sets its setting, and a value that cannot be
// used stops start-up with an error naming the variable and the setting rather than being read as something else.
function refusal(run: () => unknown): ServerConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ServerConfigError);
    return error as ServerConfigError;
  }
  throw new Error('expected a ServerConfigError, nothing was thrown');
}

describe('each environment variable sets its setting', () => {
  it.each([
    ['X_SERVER_HOST', '0.0.0.0', 'host', '0.0.0.0'],
    ['X_SERVER_PORT', '8123', 'port', 8123],
    ['X_SERVER_PORT', ' 8124 ', 'port', 8124],
    ['X_SERVER_DATA_DIR', '/srv/x', 'dataDir', '/srv/x'],
    ['X_SERVER_WORKSPACE_ROOT', '/srv/work', 'workspaceRoot', '/srv/work'],
    ['X_SERVER_UPLOAD_LIMIT', '4096', 'uploadLimit', 4096],
    ['X_SERVER_DATABASE_URL', 'postgres://db/x', 'databaseUrl', 'postgres://db/x'],
    ['X_SERVER_IDLE_RELEASE_MS', '0', 'idleReleaseMs', 0],
    ['X_SERVER_MAX_OPEN_CONVERSATIONS', '9', 'maxOpenConversations', 9],
    ['X_SERVER_BODY_LIMIT', '2048', 'bodyLimit', 2048],
    ['X_SERVER_LOG_LEVEL', 'debug', 'logLevel', 'debug'],
    ['OPENAI_API_KEY', 'sk-env', 'openaiApiKey', 'sk-env'],
    ['X_SERVER_A2A_SIGNING_KEY', '/keys/card.pem', 'a2aSigningKey', '/keys/card.pem'],
    ['X_SERVER_SIGNING_KEY', '/keys/events.pem', 'signingKey', '/keys/events.pem'],
    ['X_SERVER_ALLOWED_HOSTS', ' proxy.internal , ,api:443', 'allowedHosts', ['proxy.internal', 'api:443']],
    ['X_SERVER_ALLOWED_ORIGINS', 'https://app.example', 'allowedOrigins', ['https://app.example']],
    ['X_SERVER_UNSANDBOXED', 'TRUE', 'unsandboxed', true],
    ['X_SERVER_UNSANDBOXED', '0', 'unsandboxed', false],
  ] as const)('%s=%j sets %s', (variable, value, setting, expected) => {
    expect(resolveServerConfig({ [variable]: value })[setting]).toEqual(expected);
  });

  it('leaves the defaults for variables that are unset, empty or blank lists', () => {
    const defaults = resolveServerConfig({});
    const blank = resolveServerConfig({
      X_SERVER_PORT: '',
      X_SERVER_HOST: '',
      X_SERVER_ALLOWED_HOSTS: ' ',
      X_SERVER_UNSANDBOXED: '',
    });
    expect(blank).toEqual(defaults);
    expect(defaults).toMatchObject({ host: '127.0.0.1', port: 8000, allowedHosts: [], unsandboxed: false });
  });

  it('reads S3 from X_SERVER_S3_*, the path-style flag as a flag', () => {
    const env = { X_SERVER_S3_BUCKET: 'b', X_SERVER_S3_REGION: 'eu-1', X_SERVER_S3_ENDPOINT: 'http://127.0.0.1:9' };
    expect(resolveServerConfig({ ...env, X_SERVER_S3_FORCE_PATH_STYLE: 'True' }).s3).toEqual({
      bucket: 'b',
      prefix: 'conversations',
      region: 'eu-1',
      endpoint: 'http://127.0.0.1:9',
      forcePathStyle: true,
    });
    expect(resolveServerConfig({ ...env, X_SERVER_S3_FORCE_PATH_STYLE: 'false' }).s3?.forcePathStyle).toBe(false);
    expect(resolveServerConfig({ ...env, X_SERVER_S3_PREFIX: 'tenant-a' }).s3?.prefix).toBe('tenant-a');
    expect(resolveServerConfig({ X_SERVER_S3_PREFIX: 'p' }).s3).toBeUndefined();
  });

  it('takes session keys from SESSION_API_KEY and the contiguous OH_SESSION_API_KEYS_<n>', () => {
    const env = {
      SESSION_API_KEY: 'k0',
      OH_SESSION_API_KEYS_0: 'k1',
      OH_SESSION_API_KEYS_1: '',
      OH_SESSION_API_KEYS_2: 'k3',
      OH_SESSION_API_KEYS_4: 'after-a-gap',
    };
    expect(resolveServerConfig(env).apiKeys).toEqual(['k0', 'k1', 'k3']);
  });

  it('takes the secret key from X_SECRET_KEY before OH_SECRET_KEY', () => {
    expect(resolveServerConfig({ OH_SECRET_KEY: 'oh' }).secretKey).toBe('oh');
    expect(resolveServerConfig({ X_SECRET_KEY: 'x', OH_SECRET_KEY: 'oh' }).secretKey).toBe('x');
  });

  it('lets overrides win, and an undefined override leave the environment’s value', () => {
    const env = { X_SERVER_PORT: '8123', X_SERVER_HOST: '0.0.0.0' };
    expect(resolveServerConfig(env, { port: 9000, host: undefined })).toMatchObject({ port: 9000, host: '0.0.0.0' });
  });

  it('puts the workspace root under the data directory unless it is set', () => {
    expect(workspaceRootOf(resolveServerConfig({ X_SERVER_DATA_DIR: '/srv/x' }))).toBe('/srv/x/workspaces');
    expect(workspaceRootOf({ dataDir: '/srv/x', workspaceRoot: 'relative' })).toBe(join(process.cwd(), 'relative'));
  });
});

describe('a value that cannot be used', () => {
  it.each([
    ['X_SERVER_PORT', ' ', 'port'],
    ['X_SERVER_PORT', 'http', 'port'],
    ['X_SERVER_IDLE_RELEASE_MS', '0x10', 'idleReleaseMs'],
    ['X_SERVER_BODY_LIMIT', '1.5', 'bodyLimit'],
    ['X_SERVER_UPLOAD_LIMIT', '1e6', 'uploadLimit'],
    ['X_SERVER_UNSANDBOXED', 'yes', 'unsandboxed'],
  ] as const)('%s=%j is refused naming the variable and %s', (variable, value, setting) => {
    const error = refusal(() => resolveServerConfig({ [variable]: value }));
    expect({ setting: error.setting, variable: error.variable, code: error.code }).toEqual({
      setting,
      variable,
      code: 'invalid_server_config',
    });
    expect(error.message).toContain(variable);
    expect(error.message).toContain(setting);
    expect(error.message).toContain(JSON.stringify(value));
  });

  it('X_SERVER_S3_FORCE_PATH_STYLE that is no flag is refused, not read as false', () => {
    const error = refusal(() => resolveServerConfig({ X_SERVER_S3_BUCKET: 'b', X_SERVER_S3_FORCE_PATH_STYLE: 'on' }));
    expect(error).toMatchObject({ setting: 's3.forcePathStyle', variable: 'X_SERVER_S3_FORCE_PATH_STYLE' });
    expect(error.message).toBe(
      's3.forcePathStyle (X_SERVER_S3_FORCE_PATH_STYLE): "on" is neither true (1, true) nor false (0, false)',
    );
  });

  it('that the schema refuses names the setting, and the variable only when the environment gave it', () => {
    const fromEnv = refusal(() => resolveServerConfig({ X_SERVER_PORT: '70000', X_SERVER_LOG_LEVEL: 'loud' }));
    expect(fromEnv).toMatchObject({ setting: 'port', variable: 'X_SERVER_PORT' });
    expect(fromEnv.message).toMatch(/^port \(X_SERVER_PORT\): .+; logLevel \(X_SERVER_LOG_LEVEL\): /);
    expect(fromEnv.cause).toBeInstanceOf(ZodError);

    const fromOverride = refusal(() => resolveServerConfig({ X_SERVER_PORT: '8080' }, { port: 70000 }));
    expect({ setting: fromOverride.setting, variable: fromOverride.variable }).toEqual({
      setting: 'port',
      variable: undefined,
    });
    expect(fromOverride.message).not.toContain('X_SERVER_PORT');
    expect(resolveServerConfig({ X_SERVER_PORT: '70000' }, { port: 8080 }).port).toBe(8080);
  });

  it('in an X_SERVER_OPENAI_MODELS file is named by its path in the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'x-config-models-'));
    try {
      const file = join(dir, 'models.json');
      await writeFile(file, JSON.stringify({ 'my-model': { agent: { llm: { model: 7 } } } }));
      const error = refusal(() => resolveServerConfig({ X_SERVER_OPENAI_MODELS: file }));
      expect(error.variable).toBe('X_SERVER_OPENAI_MODELS');
      expect(error.setting).toBe('openaiModels.my-model.agent.llm.model');
      expect(error.message).toContain('openaiModels.my-model.agent.llm.model (X_SERVER_OPENAI_MODELS)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
