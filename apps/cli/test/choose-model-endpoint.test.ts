import * as agent from '@x/agent';
import { describe, expect, it } from 'vitest';
import { chooseModel } from '../src/run/choose-model.js';

describe('x run: the endpoint it names', () => {
  it('shows a base URL with its credentials masked (from --base-url or the environment)', () => {
    const given = chooseModel(agent, {
      demo: false,
      baseUrl: 'https://ci:pw-123@proxy.example/v1?key=abc&region=eu',
      env: { OPENAI_API_KEY: 'sk-test' },
    });
    expect(given.endpoint).toBe('https://ci:<secret-hidden>@proxy.example/v1?key=<secret-hidden>&region=eu');
    const fromEnv = chooseModel(agent, {
      demo: false,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://u:secret@127.0.0.1:8000/v1' },
    });
    expect(fromEnv.endpoint).toBe('http://u:<secret-hidden>@127.0.0.1:8000/v1');
    const plain = chooseModel(agent, { demo: false, env: { OPENAI_API_KEY: 'sk-test' } });
    expect(plain.endpoint).toBe('https://api.openai.com/v1');
  });
});
