//! Bundle bytes → verify → run, under a time, heap and stack limit. The checksum is written
//! into the input first (when it is long enough to have one), so that mutated bundles reach
//! the verifier rather than stop at the checksum. Start from a corpus of real bundles
//! (`iris compile`). Rejected or run, either is an ordinary outcome.
#![no_main]

use bytecode::bundle::format::{checksum, OFF_CHECKSUM};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    if bytes.len() >= OFF_CHECKSUM + 8 {
        let sum = checksum(&bytes);
        bytes[OFF_CHECKSUM..OFF_CHECKSUM + 8].copy_from_slice(&sum.to_le_bytes());
    }
    let mut rt = iris_fuzz::runtime(false);
    let _ = iris_fuzz::limited(&mut rt, |rt| rt.run_bundle(bytes));
});
