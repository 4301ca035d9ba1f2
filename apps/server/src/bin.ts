#!/usr/bin/env node
console.error('x-server: not implemented yet');
process.exit(1);
