// Bytes modules (`with { type: 'bytes' }`): the default export is a Uint8Array over an
// immutable ArrayBuffer holding the file's bytes, for any file (here one that is not UTF-8
// and one that is); a JavaScript import of bytes that are not UTF-8 is a TypeError. Written
// from the import-bytes proposal (node 20 does not have it).
// NODE-SKIP: node 20 has no bytes modules
// RUN: %iris --module %s | %FileCheck %s --match-full-lines
// RUN: %iris --module --gc-stress %s | %FileCheck %s --match-full-lines
// RUN: %iris compile --module %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines
import tiny from './import-bytes/tiny.bin' with { type: 'bytes' };
import word from './import-bytes/word.txt' with { type: 'bytes' };
import wordText from './import-bytes/word.txt' with { type: 'text' };

console.log(Object.getPrototypeOf(tiny) === Uint8Array.prototype, tiny.length, tiny.buffer.byteLength);
// CHECK: true 10 10
console.log(Array.from(tiny, (b) => b.toString(16)).join(' '));
// CHECK-NEXT: 89 50 4e 47 d a 1a a 0 ff
console.log(tiny.buffer.immutable, Object.isFrozen(tiny));
// CHECK-NEXT: true false
try {
  tiny.buffer.transfer();
} catch (e) {
  console.log(e.constructor.name);
}
// CHECK-NEXT: TypeError
try {
  tiny[0] = 1;
} catch (e) {
  console.log(e.constructor.name, tiny[0]);
}
// CHECK-NEXT: TypeError 137
console.log(Array.from(word).join(','), JSON.stringify(wordText), word.length);
// CHECK-NEXT: 99,97,102,195,169,10 "café\n" 6
const again = await import('./import-bytes/tiny.bin', { with: { type: 'bytes' } });
console.log(again.default === tiny);
// CHECK-NEXT: true
try {
  await import('./import-bytes/tiny.bin');
} catch (e) {
  console.log(e.constructor.name, e.message.includes('is not UTF-8 text'));
}
// CHECK-NEXT: TypeError true
