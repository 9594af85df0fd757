// Top-level await: importers run after the promise settles.
import Shape from './shape.mjs';
import { log } from './log.mjs';
export * from './shape.mjs';
export const unit = await Promise.resolve().then(() => new Shape(1, 1));
export const name = 'geometry';
log('geometry');
