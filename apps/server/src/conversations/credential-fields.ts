import { isSensitiveLogKey } from '../security/log-line-censor.js';

/**
 * `value` with every string held under a name that names a credential (`isSensitiveLogKey`: `api_key`,
 * `aws_secret_access_key`, an `Authorization` header, `*_token`, `password`...) replaced by `hide(string)`, at any
 * depth and in any case or spelling of the name; everything else kept as it was. For the parts of an agent config
 * the server passes through without knowing each field (the LLM's provider options, the condenser's own LLM): a
 * credential given there must not reach a response or meta.json in clear text whatever its field is called.
 */
export function hideCredentialFields(value: unknown, hide: (secret: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => hideCredentialFields(item, hide));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, child]) => [
      name,
      typeof child === 'string' && isSensitiveLogKey(name) ? hide(child) : hideCredentialFields(child, hide),
    ]),
  );
}
