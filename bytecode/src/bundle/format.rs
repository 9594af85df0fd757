//! The bundle file layout: constants shared by the writer, the reader and the verifier.
//!
//! All integers are little-endian. The file is a fixed header followed by sections, each
//! starting at a multiple of 8 bytes, and the file length is a multiple of 8, so a reader
//! can use the bytes in place from a memory-mapped file.
//!
//! ```text
//!  offset  size  header field
//!   0       8    magic            BUNDLE_MAGIC
//!   8       4    version          BUNDLE_VERSION
//!  12       4    flags            BUNDLE_FLAG_* bits; unknown bits are rejected
//!  16       4    header size      HEADER_SIZE
//!  20       4    file size        the whole file, multiple of 8
//!  24       8    checksum         of the whole file with this field read as 0
//!  32       8    source hash      hash_source() of the source text, 0 if unknown
//!  40       4    function count
//!  44       4    string count
//!  48     128    section table    SECTION_COUNT × (offset u32, size u32); unused: (0, 0)
//! ```
//!
//! Sections (index in the section table):
//!
//! ```text
//!  0 functions        function count × 64-byte entries (FN_* word indices)
//!  1 string table     string count × (offset u32, length u32 in units, kind u32: 0 one-byte, 1 two-byte)
//!  2 one-byte chars   Latin-1 bytes of the one-byte strings
//!  3 two-byte chars   UTF-16LE units of the two-byte strings (offsets are even)
//!  4 code             every function's bytecode, back to back
//!  5 handlers         (start, end, target) u32 triples; each function owns a run
//!  6 locations        (pc, line, col) u32 triples sorted by pc; each function owns a run
//!  7 source name      UTF-8
//!  8 modules          the module records of module code (see `module.rs`); empty for a script
//!  9..15              reserved for later versions, (0, 0) now
//! ```
//!
//! A function entry is 16 u32 words: name (string id), length, param count, frame size,
//! ic count, flags, source (string id or `NO_SOURCE`), code offset and length (in the code
//! section), first handler and handler count, first location and location count, and
//! three reserved words that must be 0.

/// The first 8 bytes of every bundle. The high first byte keeps text files from matching,
/// and the CR LF / SUB / LF bytes detect text-mode transfers, as PNG's signature does.
pub const BUNDLE_MAGIC: [u8; 8] = [0x89, b'I', b'R', b'B', b'\r', b'\n', 0x1a, b'\n'];

/// The format version. Any change to the layout, the opcode table or the builtin table
/// bumps it; a reader accepts only its own version.
pub const BUNDLE_VERSION: u32 = 5;

/// Header flag: the bundle carries source locations.
pub const BUNDLE_FLAG_DEBUG_INFO: u32 = 1;
/// Every header flag this version knows.
pub const BUNDLE_FLAGS_KNOWN: u32 = BUNDLE_FLAG_DEBUG_INFO;

/// Size of the fixed header.
pub const HEADER_SIZE: usize = 48 + SECTION_COUNT * 8;
/// Alignment of every section and of the file length.
pub const SECTION_ALIGN: usize = 8;

pub(crate) const OFF_VERSION: usize = 8;
pub(crate) const OFF_FLAGS: usize = 12;
pub(crate) const OFF_HEADER_SIZE: usize = 16;
pub(crate) const OFF_FILE_SIZE: usize = 20;
pub(crate) const OFF_CHECKSUM: usize = 24;
pub(crate) const OFF_SOURCE_HASH: usize = 32;
pub(crate) const OFF_FUNCTION_COUNT: usize = 40;
pub(crate) const OFF_STRING_COUNT: usize = 44;
pub(crate) const OFF_SECTIONS: usize = 48;

/// Number of entries of the section table (used and reserved).
pub const SECTION_COUNT: usize = 16;

/// A section of the bundle, by its index in the section table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Function entries.
    Functions = 0,
    /// String entries.
    StringTable = 1,
    /// One-byte string characters.
    OneByteChars = 2,
    /// Two-byte string characters.
    TwoByteChars = 3,
    /// Bytecode.
    Code = 4,
    /// Exception handler entries.
    Handlers = 5,
    /// Source location entries.
    Locations = 6,
    /// The source file name.
    SourceName = 7,
    /// Module records.
    Modules = 8,
}

/// The sections of this version, in file order.
pub(crate) const SECTIONS: [Section; 9] = [
    Section::Functions,
    Section::StringTable,
    Section::OneByteChars,
    Section::TwoByteChars,
    Section::Code,
    Section::Handlers,
    Section::Locations,
    Section::SourceName,
    Section::Modules,
];

/// Bytes per function entry.
pub const FUNCTION_ENTRY_SIZE: usize = 64;
/// Bytes per string entry.
pub const STRING_ENTRY_SIZE: usize = 12;
/// Bytes per handler entry.
pub const HANDLER_ENTRY_SIZE: usize = 12;
/// Bytes per location entry.
pub const LOCATION_ENTRY_SIZE: usize = 12;

// Word indices of a function entry.
pub(crate) const FN_NAME: usize = 0;
pub(crate) const FN_LENGTH: usize = 1;
pub(crate) const FN_PARAM_COUNT: usize = 2;
pub(crate) const FN_FRAME_SIZE: usize = 3;
pub(crate) const FN_IC_COUNT: usize = 4;
pub(crate) const FN_FLAGS: usize = 5;
pub(crate) const FN_SOURCE: usize = 6;
pub(crate) const FN_CODE_OFFSET: usize = 7;
pub(crate) const FN_CODE_LEN: usize = 8;
pub(crate) const FN_HANDLER_START: usize = 9;
pub(crate) const FN_HANDLER_COUNT: usize = 10;
pub(crate) const FN_LOCATION_START: usize = 11;
pub(crate) const FN_LOCATION_COUNT: usize = 12;
pub(crate) const FN_RESERVED: [usize; 3] = [13, 14, 15];

/// The `source` word of a function without source text.
pub(crate) const NO_SOURCE: u32 = u32::MAX;

/// String kind word: Latin-1 bytes.
pub(crate) const STRING_ONE_BYTE: u32 = 0;
/// String kind word: UTF-16LE units.
pub(crate) const STRING_TWO_BYTE: u32 = 1;

/// Largest frame the verifier accepts, in registers: keeps a hostile bundle from making the
/// VM reserve an absurd register window.
pub const MAX_FRAME_SIZE: u32 = 1 << 20;

/// The checksum of a bundle: a word-at-a-time multiplicative hash of the whole file (whose
/// length is a multiple of 8) with the checksum field read as 0. Each step is a bijection of
/// the state for a fixed word and of the word for a fixed state, so any change confined to
/// one 8-byte word (every single flipped byte, in particular) changes the result.
pub fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0x243F_6A88_85A3_08D3u64 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for (i, chunk) in (&mut chunks).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = if i == OFF_CHECKSUM / 8 { 0 } else { u64::from_le_bytes(word) };
        h = (h ^ w).wrapping_mul(K);
        h ^= h >> 29;
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(K);
        h ^= h >> 29;
    }
    h ^= h >> 32;
    h.wrapping_mul(K)
}

/// The hash of a source text recorded in the header (64-bit FNV-1a of its UTF-8 bytes), so
/// a cache can tell whether a bundle was compiled from a given source.
pub fn hash_source(source: &str) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in source.as_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Rounds `n` up to the section alignment.
pub(crate) fn align_up(n: usize) -> usize {
    n.div_ceil(SECTION_ALIGN) * SECTION_ALIGN
}

/// Reads the u32 at `bytes[at..at + 4]`; `None` past the end.
pub(crate) fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Reads the u64 at `bytes[at..at + 8]`; `None` past the end.
pub(crate) fn read_u64(bytes: &[u8], at: usize) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(8)?)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Some(u64::from_le_bytes(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_layout() {
        assert_eq!(HEADER_SIZE, 176);
        assert_eq!(HEADER_SIZE % SECTION_ALIGN, 0);
        assert_eq!(OFF_SECTIONS + SECTION_COUNT * 8, HEADER_SIZE);
        assert_eq!(FUNCTION_ENTRY_SIZE, 16 * 4);
    }

    #[test]
    fn checksum_sees_every_byte_but_its_own_field() {
        let bytes: Vec<u8> = (0..64u8).collect();
        let base = checksum(&bytes);
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            let own_field = (OFF_CHECKSUM..OFF_CHECKSUM + 8).contains(&i);
            assert_eq!(checksum(&b) == base, own_field, "byte {i}");
        }
        assert_ne!(checksum(&bytes[..56]), checksum(&bytes[..60]));
    }

    #[test]
    fn source_hash_is_fnv1a() {
        assert_eq!(hash_source(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash_source("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
