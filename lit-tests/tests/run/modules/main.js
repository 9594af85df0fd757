// A module program: a cycle (even.mjs <-> odd.mjs), a default export (shape.mjs), a
// namespace import, a star re-export, top-level await (geometry.mjs), a JSON module and
// live bindings (log.mjs); `package.json` says `.js` files here are modules. Also run from
// the bundle `iris compile` makes of the whole graph, with the sources deleted, and with
// every function compiled before the modules run (without --eager, most are compiled at
// their first call).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --eager %s | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines
// The graph compiled into one bundle runs with the source files gone:
// RUN: rm -rf %t && mkdir -p %t && cp %S/*.js %S/*.mjs %S/*.json %t/ && %iris compile %t/main.js -o %t.irb
// RUN: rm -rf %t && %iris %t.irb | %FileCheck %s --match-full-lines
// RUN: %iris --gc-stress %t.irb | %FileCheck %s --match-full-lines
import { order, count, log } from './log.mjs';
import Shape, { area, logged } from './shape.mjs';
import * as geometry from './geometry.mjs';
import config from './config.json' with { type: 'json' };
import { even, evenReady } from './even.mjs';
import { odd } from './odd.mjs';

// odd.mjs shows even.mjs's namespace while `evenReady` is in its TDZ:
// CHECK:      [Module: null prototype] {
// CHECK-NEXT:   even: [Function: even],
// CHECK-NEXT:   evenReady: <uninitialized>
// CHECK-NEXT: }
console.log(order.join(' | '));
// CHECK-NEXT: log | shape | odd (even ready: ReferenceError, even(4): true) | even (odd ready: true) | geometry
console.log(count, logged);
// CHECK-NEXT: 5 5
log('main');
console.log(count, logged, order.length);
// CHECK-NEXT: 6 6 6
console.log(even(10), odd(7), evenReady);
// CHECK-NEXT: true true true
const shapes = config.sizes.map(n => new Shape(n, n + 1));
console.log(config.title, shapes.map(String).join(', '), shapes.map(area).join(' '));
// CHECK-NEXT: modules Shape 2x3, Shape 3x4, Shape 4x5 6 12 20
console.log(Object.keys(geometry).join(','), geometry.default, geometry.area === area);
// CHECK-NEXT: area,logged,name,unit undefined true
console.log(String(geometry.unit), geometry[Symbol.toStringTag], Object.isFrozen(geometry));
// CHECK-NEXT: Shape 1x1 Module false
try { count = 1; } catch (e) { console.log(e.constructor.name); }
// CHECK-NEXT: TypeError
console.log(Reflect.set(geometry, 'name', 'x'), Reflect.deleteProperty(geometry, 'name'), 'name' in geometry);
// CHECK-NEXT: false false true
const again = await import('./geometry.mjs');
console.log(again === geometry, typeof import.meta.url, import.meta.url.endsWith('/main.js'));
// CHECK-NEXT: true string true
try { await import('./missing.mjs'); } catch (e) { console.log(e.constructor.name); }
// CHECK-NEXT: Error
console.log(await import('./config.json', { with: { type: 'json' } }));
// CHECK-NEXT: [Module: null prototype] {
// CHECK-NEXT:   default: { title: 'modules', sizes: [ 2, 3, 4 ] }
// CHECK-NEXT: }
