// A dependency with top-level await: evaluated with the importer even when deferred.
globalThis.events.push('slow starts');
await Promise.resolve();
globalThis.events.push('slow ends');
export const ready = true;
