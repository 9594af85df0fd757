// A cycle: even imports odd, odd imports even. Function declarations are initialized
// before either body runs; `evenReady` is in its TDZ until even's body runs.
import { odd, oddReady } from './odd.mjs';
import { log } from './log.mjs';
export function even(n) { return n === 0 ? true : odd(n - 1); }
export let evenReady = false;
log(`even (odd ready: ${oddReady})`);
evenReady = true;
