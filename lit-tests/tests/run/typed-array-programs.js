// Programs that live on typed arrays: an 8-bit CPU emulator running a small program from
// its memory, CRC-32 with a table, and an LZ77 compressor whose output decompresses to its
// input, all over Uint8Array/Uint32Array/Int32Array/Float64Array.
// Expected output is node's (checked by `cargo run -p lit-tests -- --node`).
// RUN: %iris %s | %FileCheck %s --match-full-lines
// RUN: %iris --jit-threshold=0 %s | %FileCheck %s --match-full-lines

// ---- An accumulator machine: 256 bytes of memory, A and X registers, a flags byte. ----
const LDA = 1, LDX = 2, ADD = 3, STA = 4, DEX = 5, JNZ = 6, HLT = 7, LDAX = 8, STAX = 9, SUB = 10, JC = 11;
function run(mem) {
  const regs = new Uint8Array(3); // A, X, carry
  let pc = 0, steps = 0;
  for (;;) {
    steps++;
    const op = mem[pc], arg = mem[(pc + 1) & 255];
    pc = (pc + 2) & 255;
    switch (op) {
      case LDA: regs[0] = mem[arg]; break;
      case LDX: regs[1] = mem[arg]; break;
      case LDAX: regs[0] = mem[(arg + regs[1]) & 255]; break;
      case STA: mem[arg] = regs[0]; break;
      case STAX: mem[(arg + regs[1]) & 255] = regs[0]; break;
      case ADD: { const s = regs[0] + mem[arg]; regs[2] = s > 255 ? 1 : 0; regs[0] = s; break; }
      case SUB: { const s = regs[0] - mem[arg]; regs[2] = s < 0 ? 1 : 0; regs[0] = s; break; }
      case DEX: regs[1]--; break;
      case JNZ: if (regs[1] !== 0) pc = arg; break;
      case JC: if (regs[2]) pc = arg; break;
      case HLT: return steps;
      default: throw new Error("bad opcode " + op + " at " + (pc - 2));
    }
  }
}
// Fibonacci numbers modulo 256 into memory 0x80.., then a checksum of them.
const mem = new Uint8Array(256);
mem.set([
  LDX, 0xf0,          // 00: X = count
  LDA, 0xf1,          // 02: loop: A = a
  ADD, 0xf2,          // 04: A += b
  STA, 0xf3,          // 06: t = A
  LDA, 0xf2,          // 08: A = b
  STA, 0xf1,          // 0a: a = A
  LDA, 0xf3,          // 0c: A = t
  STA, 0xf2,          // 0e: b = A
  STAX, 0x7f,         // 10: mem[0x7f + X] = A
  DEX, 0,             // 12
  JNZ, 0x02,          // 14
  HLT, 0,             // 16
]);
mem[0xf0] = 100; mem[0xf1] = 0; mem[0xf2] = 1;
const steps = run(mem);
const fib = mem.subarray(0x80, 0x80 + 100);
console.log(steps, fib.slice(90, 100).join(" "), fib.reduce((a, b) => (a * 31 + b) >>> 0, 7));
// CHECK: 1002 89 55 34 21 13 8 5 3 2 1 1627268644

// ---- CRC-32 (IEEE) with a 256-entry Uint32Array table. ----
const table = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  table[n] = c;
}
function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
const text = "The quick brown fox jumps over the lazy dog. ".repeat(40);
const input = new Uint8Array(text.length);
for (let i = 0; i < text.length; i++) input[i] = text.charCodeAt(i);
console.log(crc32(new Uint8Array([0x61, 0x62, 0x63])).toString(16), crc32(input).toString(16));
// CHECK-NEXT: 352441c2 6495c3e6

// ---- LZ77: (distance, length) pairs found through a hash chain in Int32Arrays. ----
function compress(src) {
  const out = new Uint8Array(src.length * 2 + 16);
  const head = new Int32Array(4096).fill(-1), prev = new Int32Array(src.length);
  let o = 0, i = 0;
  const hash = (p) => ((src[p] << 8) ^ (src[p + 1] << 4) ^ src[p + 2]) & 4095;
  while (i < src.length) {
    let bestLen = 0, bestDist = 0;
    if (i + 2 < src.length) {
      const h = hash(i);
      for (let cand = head[h], tries = 0; cand >= 0 && tries < 32; cand = prev[cand], tries++) {
        let l = 0;
        while (l < 255 && i + l < src.length && src[cand + l] === src[i + l]) l++;
        if (l > bestLen && i - cand < 65536) { bestLen = l; bestDist = i - cand; }
      }
      prev[i] = head[h];
      head[h] = i;
    }
    if (bestLen >= 4) {
      out[o++] = 1; out[o++] = bestDist >> 8; out[o++] = bestDist & 255; out[o++] = bestLen;
      for (let k = 1; k < bestLen; k++) {
        if (i + k + 2 < src.length) { const h = hash(i + k); prev[i + k] = head[h]; head[h] = i + k; }
      }
      i += bestLen;
    } else {
      out[o++] = 0; out[o++] = src[i++];
    }
  }
  return out.slice(0, o);
}
function decompress(packed, size) {
  const out = new Uint8Array(size);
  let o = 0;
  for (let p = 0; p < packed.length;) {
    if (packed[p] === 0) { out[o++] = packed[p + 1]; p += 2; continue; }
    const dist = (packed[p + 1] << 8) | packed[p + 2], len = packed[p + 3];
    out.copyWithin(o, o - dist, o - dist + Math.min(len, dist));
    for (let k = dist; k < len; k++) out[o + k] = out[o + k - dist];
    o += len; p += 4;
  }
  return out;
}
const packed = compress(input);
const back = decompress(packed, input.length);
console.log(input.length, packed.length, crc32(back) === crc32(input), back.every((b, k) => b === input[k]));
// CHECK-NEXT: 1800 118 true true

// ---- A Float64Array reduction and a histogram in a Uint32Array. ----
const samples = new Float64Array(10000);
let seed = 12345;
for (let k = 0; k < samples.length; k++) {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  samples[k] = (seed / 4294967296) * 2 - 1;
}
const hist = new Uint32Array(8);
let sum = 0;
for (let k = 0; k < samples.length; k++) {
  sum += samples[k];
  hist[Math.floor((samples[k] + 1) * 4)]++;
}
console.log(sum.toFixed(6), hist.join(","), samples.toSorted()[5000].toFixed(6));
// CHECK-NEXT: -22.605111 1263,1230,1220,1326,1239,1264,1253,1205 -0.006320
