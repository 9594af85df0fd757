// toUpperCase and toLowerCase of one-byte (Latin-1) strings map each character through a
// table: ß upper-cases to SS, µ and ÿ to capitals outside Latin-1 (a two-byte result), ×
// and ÷ have no case; text with other characters takes the general Unicode mapping.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
let all = "";
for (let c = 0; c < 256; c++) all += String.fromCharCode(c);
const codes = (s) => [...s].map((c) => c.charCodeAt(0).toString(16)).join(" ");
console.log(codes(all.slice(0xc0).toUpperCase()));
console.log(codes(all.slice(0xc0).toLowerCase()));
console.log(all.slice(0x41, 0x7b).toLowerCase(), all.slice(0x41, 0x7b).toUpperCase());
console.log("straße µ ÿ".toUpperCase(), "STRASSE Ÿ".toLowerCase(), "Ab×÷ß".toUpperCase().length);
console.log("ÉTÉ ΣΑΣ".toLowerCase(), "été σας".toUpperCase());
// CHECK: c0 c1 c2 c3 c4 c5 c6 c7 c8 c9 ca cb cc cd ce cf d0 d1 d2 d3 d4 d5 d6 d7 d8 d9 da db dc dd de 53 53 c0 c1 c2 c3 c4 c5 c6 c7 c8 c9 ca cb cc cd ce cf d0 d1 d2 d3 d4 d5 d6 f7 d8 d9 da db dc dd de 178
// CHECK-NEXT: e0 e1 e2 e3 e4 e5 e6 e7 e8 e9 ea eb ec ed ee ef f0 f1 f2 f3 f4 f5 f6 d7 f8 f9 fa fb fc fd fe df e0 e1 e2 e3 e4 e5 e6 e7 e8 e9 ea eb ec ed ee ef f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 fa fb fc fd fe ff
// CHECK-NEXT: abcdefghijklmnopqrstuvwxyz[\]^_`abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`ABCDEFGHIJKLMNOPQRSTUVWXYZ
// CHECK-NEXT: STRASSE Μ Ÿ strasse ÿ 6
// CHECK-NEXT: été σας ÉTÉ ΣΑΣ
