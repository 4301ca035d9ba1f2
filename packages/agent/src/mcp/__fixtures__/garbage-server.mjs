// Not an MCP server: answers every line on stdin with text that is not JSON-RPC.
import { createInterface } from 'node:readline';

for await (const _line of createInterface({ input: process.stdin })) {
  process.stdout.write('this is not json-rpc\n');
}
