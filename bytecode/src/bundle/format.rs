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
//!  0 functions        function count × 32-byte entries (FN_* word indices)
//!  1 function info    each function's record of LEB128 numbers (below)
//!  2 string table     string count × (offset u32, length in units << 1 | kind u32: 0 one-byte, 1 two-byte)
//!  3 one-byte chars   Latin-1 bytes of the one-byte strings
//!  4 two-byte chars   UTF-16LE units of the two-byte strings (offsets are even)
//!  5 code             every function's bytecode, back to back
//!  6 locations        each function's run of (pc, line, column) entries, delta-encoded (below)
//!  7 source name      UTF-8
//!  8 modules          the module records of module code (see `module.rs`); empty for a script
//!  9 source text      the program's text, which functions refer to by byte range (below)
//! 10..15              reserved for later versions, (0, 0) now
//! ```
//!
//! A function entry is 6 u32 words: name (string id), code offset and length (in the code
//! section), the offset of its record in the function info section, and the offset and
//! length in bytes of its run in the locations section.
//!
//! A function info record is unsigned LEB128 numbers: length, param count, frame size, ic
//! count, flags; the start of its source text plus one, or 0 without text, and then (with
//! text) the text's length; the handler count, then for each handler (inner try regions
//! first) its start, its length (end - start) and its target; for a `LAZY` function, last,
//! the string id of the description of the scope its text is compiled against.
//!
//! A run of locations is entries sorted by pc, each three LEB128 numbers: the pc's distance
//! from the previous entry's, and the line and column as zigzag-encoded differences from the
//! previous entry's (the first entry's from pc 0, line 0, column 0). An instruction's
//! location is the last entry at or before its pc.
//!
//! The source text section starts with two u32 words: its encoding and the length in bytes
//! of the text (UTF-8; functions' ranges are byte ranges of it). Encoding `SOURCE_PLAIN`:
//! the text follows. Encoding `SOURCE_DEFLATE`: the text is cut into blocks of
//! `SOURCE_BLOCK_SIZE` bytes (the last may be shorter), each compressed on its own as a raw
//! DEFLATE stream (RFC 1951), so that one function's text is found by inflating only the
//! blocks it spans; a u32 word per block gives where its compressed bytes end (counted from
//! the end of these words), and the compressed blocks follow, back to back. A bundle
//! compiled with `--strip-source` has no source text section.

/// The first 8 bytes of every bundle. The high first byte keeps text files from matching,
/// and the CR LF / SUB / LF bytes detect text-mode transfers, as PNG's signature does.
pub const BUNDLE_MAGIC: [u8; 8] = [0x89, b'I', b'R', b'B', b'\r', b'\n', 0x1a, b'\n'];

/// The format version. Any change to the layout, the opcode table or the builtin table
/// bumps it; a reader accepts only its own version.
pub const BUNDLE_VERSION: u32 = 10;

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
/// Where the header's checksum (`checksum`) is: a tool that edits a bundle rewrites it there.
pub const OFF_CHECKSUM: usize = 24;
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
    /// Function info records.
    FunctionInfo = 1,
    /// String entries.
    StringTable = 2,
    /// One-byte string characters.
    OneByteChars = 3,
    /// Two-byte string characters.
    TwoByteChars = 4,
    /// Bytecode.
    Code = 5,
    /// Source locations.
    Locations = 6,
    /// The source file name.
    SourceName = 7,
    /// Module records.
    Modules = 8,
    /// The source text.
    SourceText = 9,
}

impl Section {
    /// The section's name, for reports of bundle sizes.
    pub fn name(self) -> &'static str {
        match self {
            Section::Functions => "functions",
            Section::FunctionInfo => "function info",
            Section::StringTable => "string table",
            Section::OneByteChars => "one-byte chars",
            Section::TwoByteChars => "two-byte chars",
            Section::Code => "code",
            Section::Locations => "locations",
            Section::SourceName => "source name",
            Section::Modules => "modules",
            Section::SourceText => "source text",
        }
    }
}

/// The sections of this version, in file order.
pub const SECTIONS: [Section; 10] = [
    Section::Functions,
    Section::FunctionInfo,
    Section::StringTable,
    Section::OneByteChars,
    Section::TwoByteChars,
    Section::Code,
    Section::Locations,
    Section::SourceName,
    Section::Modules,
    Section::SourceText,
];

/// Bytes per function entry.
pub const FUNCTION_ENTRY_SIZE: usize = 24;
/// Bytes per string entry.
pub const STRING_ENTRY_SIZE: usize = 8;

// Word indices of a function entry.
pub(crate) const FN_NAME: usize = 0;
pub(crate) const FN_CODE_OFFSET: usize = 1;
pub(crate) const FN_CODE_LEN: usize = 2;
pub(crate) const FN_INFO: usize = 3;
pub(crate) const FN_LOCATION_OFFSET: usize = 4;
pub(crate) const FN_LOCATION_LEN: usize = 5;

/// String kind bit: Latin-1 bytes.
pub(crate) const STRING_ONE_BYTE: u32 = 0;
/// String kind bit: UTF-16LE units.
pub(crate) const STRING_TWO_BYTE: u32 = 1;

/// Source text encoding: the UTF-8 text as is.
pub(crate) const SOURCE_PLAIN: u32 = 0;
/// Source text encoding: blocks of raw DEFLATE.
pub(crate) const SOURCE_DEFLATE: u32 = 1;
/// Bytes of text per compressed block (the last block may be shorter).
pub(crate) const SOURCE_BLOCK_SIZE: usize = 1 << 16;

/// Largest frame the verifier accepts, in registers: keeps a hostile bundle from making the
/// VM reserve an absurd register window.
pub const MAX_FRAME_SIZE: u32 = 1 << 20;

/// The checksum of a bundle: a word-at-a-time multiplicative hash of the whole file (whose
/// length is a multiple of 8) with the checksum field read as 0, in four lanes (word `i` goes
/// to lane `i % 4`, so the four multiplication chains run side by side) folded into one at
/// the end. Each step is a bijection of the state for a fixed word and of the word for a
/// fixed state, so any change confined to one 8-byte word (every single flipped byte, in
/// particular) changes its lane and so the result.
pub fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    fn step(h: u64, w: u64) -> u64 {
        let h = (h ^ w).wrapping_mul(K);
        h ^ (h >> 29)
    }
    let word = |index: usize, chunk: &[u8]| {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        if index == OFF_CHECKSUM / 8 {
            0
        } else {
            u64::from_le_bytes(w)
        }
    };
    let seed = 0x243F_6A88_85A3_08D3u64 ^ bytes.len() as u64;
    let mut lanes = [seed, seed ^ 1, seed ^ 2, seed ^ 3];
    let mut blocks = bytes.chunks_exact(32);
    for (b, block) in (&mut blocks).enumerate() {
        for (k, lane) in lanes.iter_mut().enumerate() {
            *lane = step(*lane, word(4 * b + k, &block[8 * k..8 * k + 8]));
        }
    }
    let first = (bytes.len() / 32) * 4;
    for (k, chunk) in blocks.remainder().chunks(8).enumerate() {
        lanes[k] = step(lanes[k], word(first + k, chunk));
    }
    let h = lanes.iter().fold(seed, |h, &lane| step(h, lane));
    let h = h ^ (h >> 32);
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

/// Appends `v` as unsigned LEB128 (seven bits a byte, low bits first).
pub(crate) fn put_leb(out: &mut Vec<u8>, v: u32) {
    put_leb64(out, u64::from(v));
}

/// Appends `v` as unsigned LEB128.
pub(crate) fn put_leb64(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// `v` zigzag-encoded (0, -1, 1, -2, ... become 0, 1, 2, 3, ...), for LEB128.
pub(crate) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// A reader of LEB128 numbers from a slice.
#[derive(Clone)]
pub(crate) struct Leb<'a> {
    bytes: &'a [u8],
    /// The next byte to read.
    pub at: usize,
}

impl<'a> Leb<'a> {
    /// Reads from `bytes[at..]`.
    pub fn new(bytes: &'a [u8], at: usize) -> Leb<'a> {
        Leb { bytes, at }
    }

    /// The next unsigned number; `None` past the end or if it does not fit in 64 bits.
    pub fn u64(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at)?;
            self.at += 1;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                return None;
            }
            v |= bits << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    /// The next unsigned number; `None` past the end or if it does not fit in 32 bits.
    pub fn u32(&mut self) -> Option<u32> {
        u32::try_from(self.u64()?).ok()
    }

    /// The next zigzag-encoded signed number.
    pub fn i64(&mut self) -> Option<i64> {
        let z = self.u64()?;
        Some((z >> 1) as i64 ^ -((z & 1) as i64))
    }
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
        assert_eq!(FUNCTION_ENTRY_SIZE, (FN_LOCATION_LEN + 1) * 4);
    }

    #[test]
    fn leb128_and_zigzag_round_trip() {
        let values = [0u32, 1, 127, 128, 300, 16_383, 16_384, u32::MAX];
        let mut bytes = Vec::new();
        for v in values {
            put_leb(&mut bytes, v);
        }
        assert_eq!(bytes[..5], [0, 1, 127, 0x80, 1]);
        let mut r = Leb::new(&bytes, 0);
        for v in values {
            assert_eq!(r.u32(), Some(v));
        }
        assert_eq!(r.u32(), None);
        // Five bytes whose value needs more than 32 bits, and a number cut short.
        assert_eq!(Leb::new(&[0xff, 0xff, 0xff, 0xff, 0x1f], 0).u32(), None);
        assert_eq!(Leb::new(&[0x80, 0x80], 0).u32(), None);
        assert_eq!(Leb::new(&[0xff; 10], 0).u64(), None);
        for v in [0i64, -1, 1, -2, 2, -1000, 1000, i64::MIN, i64::MAX] {
            let mut b = Vec::new();
            put_leb64(&mut b, zigzag(v));
            assert_eq!(Leb::new(&b, 0).i64(), Some(v));
        }
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
    }

    #[test]
    fn checksum_sees_every_byte_but_its_own_field() {
        // Whole 32-byte blocks (every lane), then a partial block too.
        for (len, flip) in [(64u8, 0x10u8), (100, 0x01)] {
            let bytes: Vec<u8> = (0..len).collect();
            let base = checksum(&bytes);
            for i in 0..bytes.len() {
                let mut b = bytes.clone();
                b[i] ^= flip;
                let own_field = (OFF_CHECKSUM..OFF_CHECKSUM + 8).contains(&i);
                assert_eq!(checksum(&b) == base, own_field, "byte {i} of {len}");
            }
        }
        let bytes: Vec<u8> = (0..64u8).collect();
        assert_ne!(checksum(&bytes[..56]), checksum(&bytes[..60]));
    }

    #[test]
    fn source_hash_is_fnv1a() {
        assert_eq!(hash_source(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash_source("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
