#!/usr/bin/env node
console.error('x: not implemented yet');
process.exit(1);
