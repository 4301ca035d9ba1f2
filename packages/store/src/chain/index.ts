export { type ChainLink, computeChainHash } from './chain-link.js';
export { type SignChainHeadOptions, signChainHead } from './sign-chain-head.js';
export { isHeadSignatureValid, type SignedHead, signHead } from './signed-head.js';
export { type VerifyChainOptions, verifyEventChain } from './verify-chain.js';
export type { ChainProblem, ChainProblemKind, ChainReport, SignatureStatus } from './verify-report.js';
