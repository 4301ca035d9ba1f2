import { homedir } from 'node:os';
import { join } from 'node:path';
import { defaultPersistenceDir } from '@x/agent';
import { describe, expect, it } from 'vitest';
import { resolveDataDir } from './data-dir.js';

describe('resolveDataDir', () => {
  it('agrees with defaultPersistenceDir of @x/agent', () => {
    expect(resolveDataDir(undefined, { X_HOME: '/srv/x' })).toBe(defaultPersistenceDir({ X_HOME: '/srv/x' }));
    expect(resolveDataDir(undefined, {})).toBe(defaultPersistenceDir({}));
  });

  it('takes --data-dir as given, with ~ expanded', () => {
    expect(resolveDataDir('~/elsewhere', {})).toBe(join(homedir(), 'elsewhere'));
    expect(resolveDataDir('/abs/dir', { X_HOME: '/srv/x' })).toBe('/abs/dir');
  });
});
