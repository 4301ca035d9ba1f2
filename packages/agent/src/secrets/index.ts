export { type FernetEncryptOptions, fernetDecrypt, fernetEncrypt } from './fernet.js';
export { InvalidSecretKeyError } from './invalid-secret-key-error.js';
export { InvalidSecretsError } from './invalid-secrets-error.js';
export { createSecretCipher, type SecretCipher } from './secret-cipher.js';
export { SecretDecryptionError } from './secret-decryption-error.js';
export {
  type SecretFunction,
  type SecretInput,
  type SecretLogger,
  SecretRegistry,
  type SecretRegistryOptions,
} from './secret-registry.js';
export {
  redactedSecretValue,
  type SecretRegistryJson,
  type StaticSecretJson,
  secretRegistryJsonSchema,
  staticSecretJsonSchema,
} from './secret-registry-json.js';
