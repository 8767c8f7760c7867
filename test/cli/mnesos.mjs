#!/usr/bin/env node
// bin/mnesos for the tests: runs entry.ts (main.ts with `turn` and `play` registered) through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./entry.ts');
