// String methods and template literals.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris -O0 %s | %FileCheck %s --match-full-lines --strict-whitespace
// RUN: %iris compile %s -o %t.irb && %iris %t.irb | %FileCheck %s --match-full-lines --strict-whitespace

var s = "Hello, World";
print(s.length, s.charAt(4), s.charCodeAt(0), s.indexOf("o"), s.lastIndexOf("o"), s.indexOf("z"));
print(s.slice(7), s.slice(-5, -1), s.substring(5, 0), s.toUpperCase(), s.toLowerCase());
print(s.split(", ").join("|"), "a,b,,c".split(",").length, "abc".split("").join(" "));
print("  pad  ".trim() + "!", "x".repeat(3), "abc".includes("b"), "abc".startsWith("ab"), "abc".endsWith("bc"));
print("5".padStart(3, "0"), "5".padEnd(3, "*"), String.fromCharCode(72, 105), "ab".concat("cd", 1));
var name = "Iris", n = 3;
print(`Hi ${name}, ${n + 1} times; ${`nested ${n}`}`);
print(`line1
line2`);
print("\u0041\x42\t|", 'single "quotes"', "\u00e9".length, "😀".length);
print(String(123), String(null), String(undefined), String(true), String([1, [2, 3]]), String({}));

// CHECK: 12 o 72 4 8 -1
// CHECK-NEXT: World Worl Hello HELLO, WORLD hello, world
// CHECK-NEXT: Hello|World 4 a b c
// CHECK-NEXT: pad! xxx true true true
// CHECK-NEXT: 005 5** Hi abcd1
// CHECK-NEXT: Hi Iris, 4 times; nested 3
// CHECK-NEXT: line1
// CHECK-NEXT: line2
// CHECK-NEXT: AB	| single "quotes" 1 2
// CHECK-NEXT: 123 null undefined true 1,2,3 [object Object]
