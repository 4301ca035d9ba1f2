import { createMemoryFileStore } from '../src/memory-file-store.js';
import { describeChainTamperSuite } from './helpers/chain-tamper-suite.js';

describeChainTamperSuite('the memory store', async () => createMemoryFileStore());
