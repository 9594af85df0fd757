// `import defer`: the module is linked but runs only when its namespace is first used
// (its top-level-await dependencies run with the importer); `then` and symbols do not
// count as uses; `import.defer()` gives the deferred namespace. A text module's default
// export is its text. Written from the proposals (node 20 supports neither).
// NODE-SKIP: node 20 has no `import defer` and no text modules
// RUN: %iris --module %s | %FileCheck %s --match-full-lines
// RUN: %iris --module --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris compile --module %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines
import './import-defer/setup.mjs';
import defer * as lazy from './import-defer/lazy.mjs';
import defer * as usesSlow from './import-defer/uses-slow.mjs';
import text from './import-defer/greeting.txt' with { type: 'text' };

console.log(events.join(', '));
// CHECK: slow starts, slow ends
console.log(lazy[Symbol.toStringTag], typeof lazy.then, events.length);
// CHECK-NEXT: Deferred Module undefined 2
console.log(lazy.value, events.join(', '));
// CHECK-NEXT: 42 slow starts, slow ends, lazy runs
console.log(Object.keys(usesSlow).join(','), usesSlow.fromSlow, events.at(-1));
// CHECK-NEXT: fromSlow true uses-slow runs (slow ready: true)
const again = await import.defer('./import-defer/lazy.mjs');
console.log(again === lazy, (await import('./import-defer/uses-slow.mjs')) === usesSlow);
// CHECK-NEXT: true false
console.log(JSON.stringify(text));
// CHECK-NEXT: "hello, text module\n"
