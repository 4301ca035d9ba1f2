import type { FastifyRequest } from 'fastify';
import { censorLogLine, isSensitiveLogKey, REDACTED } from './log-line-censor.js';

export { REDACTED };

/** Parameter names whose values never reach the log (session keys, tokens, passwords, ...). */
const SECRET_PARAM = /key|token|secret|passw|auth|session|signature|credential/i;

/**
 * The URL as it may be logged: values of key-like parameters (`session_api_key`, `api_key`, `token`, ...)
 * replaced by `[REDACTED]`, in any spelling of the name (percent-encoded, any case). A parameter is any `name=value`
 * after a `?`, `&` or `;`: clients pass keys as `;` parameters too, of the path (`/x;token=...`) or the query
 * (`?a=1;token=...`), and a second `?` starts another one; all reach the log as written.
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&;])([^=&;?#]*)=([^&;?#]*)/g, (pair, separator: string, rawName: string) => {
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // A malformed name is judged as written.
    }
    return SECRET_PARAM.test(name) ? `${separator}${rawName}=${REDACTED}` : pair;
  });
}

/** Field names whose values pino censors in logged objects. */
const SECRET_FIELDS = ['api_key', 'apiKey', 'session_api_key', 'secret_key', 'secretKey', 'password', 'token'];

/** Header paths pino censors wherever a request, a reply or headers are logged. */
const SECRET_HEADERS = ['x-session-api-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie'];

/** A copy of `headers` with the secret ones censored. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      SECRET_HEADERS.includes(name.toLowerCase()) || isSensitiveLogKey(name) ? REDACTED : value,
    ]),
  );
}

/**
 * Fastify logger options that keep secrets out of the log: the request serializer logs the URL with
 * key-like query values redacted (never headers); pino's `redact` censors key, authorization and
 * cookie headers and key fields at the paths it knows (exact names, fast); and every line is censored once
 * serialized (`censorLogLine`): the value of any key named like a credential (`Authorization`, `X-Api-Key`,
 * `API_KEY`, `password`, `*_token`...), in any case and at any depth, bindings and errors included.
 */
export function redactingLoggerOptions(): {
  redact: { paths: string[]; censor: string };
  serializers: { req: (request: FastifyRequest) => Record<string, unknown> };
  hooks: { streamWrite: (line: string) => string };
} {
  const paths = [
    ...SECRET_HEADERS.flatMap((name) =>
      ['req.headers', 'res.headers', 'request.headers', 'headers'].map((base) => `${base}["${name}"]`),
    ),
    // Keys logged as fields of an object (an LLM configuration, a request body), at any of the first two levels.
    ...SECRET_FIELDS.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
  ];
  return {
    redact: { paths, censor: REDACTED },
    hooks: { streamWrite: censorLogLine },
    serializers: {
      req: (request) => {
        // A request line logged as text (`GET /x?token=...`) has a query to redact as much as a URL.
        if (typeof request !== 'object' || request === null) return { value: redactUrl(String(request)) };
        if (!('raw' in request)) {
          // Something else logged under `req` (a plain object, headers...): copied with secrets censored.
          const copy: Record<string, unknown> = { ...(request as unknown as Record<string, unknown>) };
          if (typeof copy.url === 'string') copy.url = redactUrl(copy.url);
          if (typeof copy.headers === 'object' && copy.headers !== null) {
            copy.headers = redactHeaders(copy.headers as Record<string, unknown>);
          }
          return copy;
        }
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}
