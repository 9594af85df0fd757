// A default export (a class), named exports, and a re-export.
import { log } from './log.mjs';
export default class Shape {
  constructor(w, h) { this.w = w; this.h = h; }
  toString() { return `${this.constructor.name} ${this.w}x${this.h}`; }
}
export function area(s) { return s.w * s.h; }
export { count as logged } from './log.mjs';
log('shape');
