globalThis.events = [];
