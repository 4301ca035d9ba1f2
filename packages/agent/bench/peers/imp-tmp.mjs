await import('zod');
const u0=process.cpuUsage(); const t=performance.now();
await import('@x/agent');
const u=process.cpuUsage(u0);
console.log((performance.now()-t).toFixed(1), ((u.user+u.system)/1000).toFixed(1));
