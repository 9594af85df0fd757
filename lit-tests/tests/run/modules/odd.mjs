import { even, evenReady } from './even.mjs';
import { log } from './log.mjs';
import * as evenNamespace from './even.mjs';
console.log(evenNamespace);
export function odd(n) { return n === 0 ? false : even(n - 1); }
export let oddReady = false;
let seen;
try { seen = evenReady; } catch (e) { seen = e.constructor.name; }
log(`odd (even ready: ${seen}, even(4): ${even(4)})`);
oddReady = true;
