// String.prototype.normalize in the four forms (lone surrogates stay where they are and
// split the text), localeCompare of canonically equivalent strings, escape and the URI
// encoders, and case mappings that change the length.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
const hex = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i).toString(16)).join(" ");
const s = "\u1E9B\u0323";
for (const form of ["NFC", "NFD", "NFKC", "NFKD"]) console.log(form, hex(s.normalize(form)));
console.log(hex("A\u030A".normalize()), "\uFDFA".normalize("NFKD").length, "caf\u00e9".normalize("NFD").length);
console.log(hex(String.fromCharCode(0x65, 0xd800, 0x301, 0xdc00, 0x41, 0x30a).normalize()));
console.log(hex("\u{1F600}e\u0301".normalize()));
try { "x".normalize("nfc"); } catch (e) { console.log(e.name); }
console.log(escape("aZ9@*_+-./ \u00e9\u0100\uffff%"));
console.log(encodeURIComponent("a b;\u00e9\u20ac\u{1F600}"), encodeURI("http://x/a b?c=d#e"));
console.log("o\u0308".localeCompare("\u00f6"), "a".localeCompare("b"), "\u00e9".localeCompare("e\u0301z"));
console.log("stra\u00dfe".toUpperCase(), "\u0130".toLowerCase().length, "\u0390".toUpperCase().length);
// CHECK: NFC 1e9b 323
// CHECK-NEXT: NFD 17f 323 307
// CHECK-NEXT: NFKC 1e69
// CHECK-NEXT: NFKD 73 323 307
// CHECK-NEXT: c5 18 5
// CHECK-NEXT: 65 d800 301 dc00 c5
// CHECK-NEXT: d83d de00 e9
// CHECK-NEXT: RangeError
// CHECK-NEXT: aZ9@*_+-./%20%E9%u0100%uFFFF%25
// CHECK-NEXT: a%20b%3B%C3%A9%E2%82%AC%F0%9F%98%80 http://x/a%20b?c=d#e
// CHECK-NEXT: 0 -1 -1
// CHECK-NEXT: STRASSE 2 3
