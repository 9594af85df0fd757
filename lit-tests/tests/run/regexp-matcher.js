// The regexp matcher: loops nested in loops, captures reset per iteration, lookbehind read
// backwards, atomic lookarounds, both case foldings, single-character loops, surrogate pairs,
// v-mode strings and properties.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines --strict-whitespace

function show(re, s) {
  var m = re.exec(s);
  print(String(re), JSON.stringify(m && Array.from(m)), m ? m.index : -1);
}
// Loops nested in loops get their counts back on backtracking.
show(/(?:(?:s*)*!)*\d/, "s!s!1");
show(/(?:(a){1,2}|b)*c/, "aabac");
show(/(a|ab)(c|bcd)(d*)/, "abcd");
// Captures of a quantified group are reset at each iteration.
show(/(z)((a+)?(b+)?(c))*/, "zaacbbbcac");
// Lookbehind reads backwards, captures included; backreferences inside it too.
show(/(?<=(\d+)(\d+))$/, "1053");
show(/(?<=\1(a))b/, "aab");
show(/(?<!abc)\w\w\w/, "abcdef");
// Lookaheads are atomic; a negative one leaves no captures.
show(/(?=(a+))a*b\1/, "baaabac");
show(/(.*?)a(?!(a+)b\2c)\2(.*)/, "baaabaac");
// Case folding: legacy uppercases, Unicode modes fold.
show(/\u212a/i, "k");
show(/\u212a/iu, "k");
show(/[\u00e5]/i, "\u212b");
show(/\w/iu, "\u017f");
show(/(a)\1/i, "aA");
// Greedy and lazy single-character loops, with limits.
show(/a{2,3}?b/, "aaab");
show(/x*y+$/, "xxxyyyz xyy");
show(/[^,]+,{1,}/, "ab,,,cd");
// Unicode mode reads pairs; a lone surrogate does not match half of one.
show(/^.$/u, "\ud83d\ude00");
show(/\ud83d/u, "\ud83d\ude00");
show(/\ud83d/, "\ud83d\ude00");
// Alternatives and empty matches in global replace and split.
print("aaa".replace(/a*?/g, "-"), String("a,b;;c".split(/[,;]/)), "x".replace(/$|^/g, "!"));
// v-mode classes with strings match the longest string first.
show(/[\q{abc|ab}a]/v, "abcd");
show(/^\p{RGI_Emoji_Flag_Sequence}+$/v, "\u{1F1FA}\u{1F1F8}\u{1F1EB}\u{1F1F7}");
show(/\p{Script=Greek}+/u, "abc\u03b1\u03b2\u03b3");

// CHECK: /(?:(?:s*)*!)*\d/ ["s!s!1"] 0
// CHECK-NEXT: /(?:(a){1,2}|b)*c/ ["aabac","a"] 0
// CHECK-NEXT: /(a|ab)(c|bcd)(d*)/ ["abcd","a","bcd",""] 0
// CHECK-NEXT: /(z)((a+)?(b+)?(c))*/ ["zaacbbbcac","z","ac","a",null,"c"] 0
// CHECK-NEXT: /(?<=(\d+)(\d+))$/ ["","1","053"] 4
// CHECK-NEXT: /(?<=\1(a))b/ ["b","a"] 2
// CHECK-NEXT: /(?<!abc)\w\w\w/ ["abc"] 0
// CHECK-NEXT: /(?=(a+))a*b\1/ ["aba","a"] 3
// CHECK-NEXT: /(.*?)a(?!(a+)b\2c)\2(.*)/ ["baaabaac","ba",null,"abaac"] 0
// CHECK-NEXT: /\u212a/i null -1
// CHECK-NEXT: /\u212a/iu ["k"] 0
// CHECK-NEXT: /[\u00e5]/i null -1
// CHECK-NEXT: /\w/iu ["ſ"] 0
// CHECK-NEXT: /(a)\1/i ["aA","a"] 0
// CHECK-NEXT: /a{2,3}?b/ ["aaab"] 0
// CHECK-NEXT: /x*y+$/ ["xyy"] 8
// CHECK-NEXT: /[^,]+,{1,}/ ["ab,,,"] 0
// CHECK-NEXT: /^.$/u ["😀"] 0
// CHECK-NEXT: /\ud83d/u null -1
// CHECK-NEXT: /\ud83d/ ["\ud83d"] 0
// CHECK-NEXT: -a-a-a- a,b,,c !x!
// CHECK-NEXT: /[\q{abc|ab}a]/v ["abc"] 0
// CHECK-NEXT: /^\p{RGI_Emoji_Flag_Sequence}+$/v ["🇺🇸🇫🇷"] 0
// CHECK-NEXT: /\p{Script=Greek}+/u ["αβγ"] 3
