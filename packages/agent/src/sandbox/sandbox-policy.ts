import { z } from 'zod';
import { parseHostPattern } from './host-allowlist.js';
import { sandboxLimitsSchema } from './sandbox-limits.js';

/**
 * Where the sandbox's processes may connect. `none` (the default): a network namespace with only its own
 * loopback, so neither the host's loopback listeners nor anything outside is reachable. `all`: the host's
 * network. `allowlist`: only through a filtering proxy on the host that admits the listed hosts
 * (`example.com`, `*.example.com`, `127.0.0.1:8080`; a host without a port admits every port), and only where the
 * name resolves to a public address unless `allowPrivateNetworks`.
 */
export const sandboxNetworkSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('none') }).strict(),
  z.object({ mode: z.literal('all') }).strict(),
  z
    .object({
      mode: z.literal('allowlist'),
      hosts: z
        .array(
          z.string().refine((host) => parseHostPattern(host) !== undefined, {
            message: 'expected a host: `example.com`, `*.example.com`, `host:port` or `[::1]:port`',
          }),
        )
        .min(1),
      /**
       * Admit a listed name that resolves into a private network (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7,
       * ...). Off by default: a name whose answer is not a public address is refused, as a DNS record (or a
       * rebinding) would otherwise reach the server's internal network. Never admitted by a name: this machine and
       * its link (loopback, 169.254.169.254): an entry naming the address (`10.0.0.5`, `127.0.0.1:8080`) admits it.
       */
      allowPrivateNetworks: z.boolean().optional(),
    })
    .strict(),
]);
export type SandboxNetwork = z.infer<typeof sandboxNetworkSchema>;

/**
 * What a sandboxed process may see and do. Recorded with the conversation, so an audit shows what ran under
 * which policy. `mode: 'unsandboxed'` is the explicit, loud choice to run with the host's authority.
 */
export const sandboxPolicySchema = z
  .object({
    mode: z.enum(['sandboxed', 'unsandboxed']).default('sandboxed'),
    network: sandboxNetworkSchema.default({ mode: 'none' }),
    /** Host paths mounted writable besides the workspace (absolute), at the same path. */
    writablePaths: z.array(z.string().startsWith('/', 'expected an absolute path')).default([]),
    /** Host paths mounted read-only besides the system directories (absolute), at the same path. */
    readablePaths: z.array(z.string().startsWith('/', 'expected an absolute path')).default([]),
    /** Left out or `{}`: the defaults (`DEFAULT_SANDBOX_LIMITS`), applied at use. */
    limits: sandboxLimitsSchema.default({}),
  })
  .strict();
export type SandboxPolicy = z.infer<typeof sandboxPolicySchema>;
export type SandboxPolicyInput = z.input<typeof sandboxPolicySchema>;
