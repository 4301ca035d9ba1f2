import { describe, expect, it } from 'vitest';
import { serverAttributes } from './agent-spans.js';

describe('server attributes of a model call', () => {
  it('names the host as semantic conventions spell it, with the port the scheme implies', () => {
    expect(serverAttributes('http://[::1]:8080/v1')).toEqual({ 'server.address': '::1', 'server.port': 8080 });
    expect(serverAttributes('https://[2001:db8::7]/v1')).toEqual({
      'server.address': '2001:db8::7',
      'server.port': 443,
    });
    expect(serverAttributes('http://127.0.0.1/v1')).toEqual({ 'server.address': '127.0.0.1', 'server.port': 80 });
    expect(serverAttributes('https://API.example.com:9443')).toEqual({
      'server.address': 'api.example.com',
      'server.port': 9443,
    });
    expect(serverAttributes('not a url')).toEqual({});
    expect(serverAttributes(undefined)).toEqual({});
  });
});
