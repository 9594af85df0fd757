// Uint8Array to and from base64 and hex (ES2026): alphabets, padding, the last-chunk
// modes, partial decoding into an existing array, and the errors.
// NODE-SKIP: node 20 has no Uint8Array base64 methods.
// RUN: %iris %s | %FileCheck %s --match-full-lines
const bytes = new Uint8Array([0xfb, 0xff, 0x00, 0x66, 0x6f]);
console.log(bytes.toBase64(), bytes.toBase64({ alphabet: "base64url", omitPadding: true }), bytes.toHex());
// CHECK: +/8AZm8= -_8AZm8 fbff00666f
console.log(Uint8Array.fromBase64("Zm9v YmFy\n").join(), Uint8Array.fromHex("CAFE").join(), Uint8Array.fromBase64("Zm9vYg", { lastChunkHandling: "stop-before-partial" }).length);
// CHECK-NEXT: 102,111,111,98,97,114 202,254 3
const into = new Uint8Array(4);
console.log(JSON.stringify(into.setFromBase64("Zm9vYmFy")), into.join(), JSON.stringify(into.setFromHex("0102")), into.join());
// CHECK-NEXT: {"read":4,"written":3} 102,111,111,0 {"read":4,"written":2} 1,2,111,0
for (const bad of [() => Uint8Array.fromBase64("Zm9vY"), () => Uint8Array.fromHex("abc"), () => Uint8Array.fromBase64(1), () => bytes.toBase64({ alphabet: "hex" })]) {
  try {
    bad();
  } catch (e) {
    console.log(e.name);
  }
}
// CHECK-NEXT: SyntaxError
// CHECK-NEXT: SyntaxError
// CHECK-NEXT: TypeError
// CHECK-NEXT: TypeError
