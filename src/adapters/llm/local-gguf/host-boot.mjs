// Starts the model host (host-child.ts) from sources: tsx's loader is registered first (a source checkout
// run by tsx or vitest). A built package forks dist's host-child.js directly and never runs this file.
const entry = process.argv[2];
if (String(entry).endsWith('.ts')) (await import('tsx/esm/api')).register();
await import(entry);
