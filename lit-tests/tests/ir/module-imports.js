// IRGen of module code: the module record (requests, imports by slot, exports), the module
// scope holding every top-level declaration and import, the top-level function that makes
// the environment and hoists functions, and the body over it. A named import is read with
// load_import (through the exporter's binding); a namespace import is a const slot.
// RUN: %iris dump --ir --module %s | %FileCheck %s --match-full-lines
import def, { counter as c } from './counter.mjs';
import * as ns from './counter.mjs';
export { c as current };
export * from './counter.mjs';
export let total = c + 1;
export default function () { return def() + ns.counter + import.meta.url; }

// Auto-generated content below. Please do not modify manually.

// CHECK:      module "{{.*}}module-imports.js" top_level=@0
// CHECK-EMPTY:
// CHECK-NEXT: module_record scope=$0 module_slot=0 tla=false
// CHECK-NEXT:   request #0 "./counter.mjs" loc=6:1
// CHECK-NEXT:   import $0.1 from #0 "default"
// CHECK-NEXT:   import $0.2 from #0 "counter"
// CHECK-NEXT:   import $0.3 from #0 *
// CHECK-NEXT:   export "current" from #0 "counter"
// CHECK-NEXT:   export * from #0
// CHECK-NEXT:   export "total" = $0.5
// CHECK-NEXT:   export "default" = $0.4
// CHECK-EMPTY:
// CHECK-NEXT: scope $0 in @0 parent=none
// CHECK-NEXT:   $0.0 internal "%module"
// CHECK-NEXT:   $0.1 import "def"
// CHECK-NEXT:   $0.2 import "c"
// CHECK-NEXT:   $0.3 const "ns"
// CHECK-NEXT:   $0.4 var "*default*"
// CHECK-NEXT:   $0.5 let "total"
// CHECK-EMPTY:
// CHECK-NEXT: function @0 ""() kind=toplevel strict parent=none length=0 loc=1:1
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = create_scope $0 undefined : environment
// CHECK-NEXT:   store_frame $0.5:"total" empty, %0
// CHECK-NEXT:   %1 = create_closure @1:"default" %0 : closure
// CHECK-NEXT:   store_frame $0.4:"*default*" %1, %0
// CHECK-NEXT:   %2 = create_closure @2:"" %0 : closure
// CHECK-NEXT:   return %2
// CHECK-EMPTY:
// CHECK-NEXT: function @1 "default"() kind=function strict parent=$0 length=0 loc=11:16 source="function () { return def() + ns.counter + import.meta.url; }"
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $0 : environment
// CHECK-NEXT:   %1 = load_import $0.1:"def" %0 : any
// CHECK-NEXT:   %2 = call %1, undefined : any
// CHECK-NEXT:   %3 = load_frame $0.3:"ns" %0 : any|empty
// CHECK-NEXT:   %4 = load_property %3, "counter" : any
// CHECK-NEXT:   %5 = binary_op "+" %2, %4 : string|number|bigint
// CHECK-NEXT:   %6 = load_frame $0.0:"%module" %0 : any|empty
// CHECK-NEXT:   %7 = call_builtin #39 %6 : any
// CHECK-NEXT:   %8 = load_property %7, "url" : any
// CHECK-NEXT:   %9 = binary_op "+" %5, %8 : string|number|bigint
// CHECK-NEXT:   return %9
// CHECK-EMPTY:
// CHECK-NEXT: function @2 ""() kind=function strict parent=$0 length=0 loc=1:1
// CHECK-NEXT: %BB0:
// CHECK-NEXT:   %0 = get_parent_scope $0 : environment
// CHECK-NEXT:   %1 = load_import $0.2:"c" %0 : any
// CHECK-NEXT:   %2 = binary_op "+" %1, 1 : string|number|bigint
// CHECK-NEXT:   store_frame $0.5:"total" %2, %0
// CHECK-NEXT:   return undefined
