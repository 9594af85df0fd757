globalThis.events.push('lazy runs');
export const value = 42;
export function then() { return 'not a thenable'; }
