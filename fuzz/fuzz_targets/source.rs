//! Source text → compile → run, under a time, heap and stack limit. A quarter of the inputs
//! (chosen by their first byte) run with the JIT compiling every function at its first call.
//! A syntax error, an uncaught exception, an interrupt or a heap-limit RangeError is an
//! ordinary outcome; a panic, an abort or a memory error is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let jit = data.first().is_some_and(|b| b % 4 == 0);
    let mut rt = iris_fuzz::runtime(jit);
    let _ = iris_fuzz::limited(&mut rt, |rt| rt.run_script(source, "fuzz.js"));
});
