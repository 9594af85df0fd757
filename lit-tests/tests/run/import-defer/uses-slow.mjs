import { ready } from './slow.mjs';
globalThis.events.push(`uses-slow runs (slow ready: ${ready})`);
export const fromSlow = ready;
