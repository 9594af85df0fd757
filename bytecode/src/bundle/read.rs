//! `Bundle`: a verified bundle read in place.

use std::borrow::Cow;

use super::format::*;
use super::module::ModuleDesc;
use super::{BundleError, BundleStr, FunctionFlags, FunctionHeader, HandlerEntry, SourceRange};

/// A verified bundle. Owns the bytes; every accessor reads them in place.
#[derive(Clone)]
pub struct Bundle {
    bytes: Vec<u8>,
    /// `(offset, size)` of every section.
    sections: [(usize, usize); SECTION_COUNT],
    function_count: u32,
    string_count: u32,
    /// The module records (empty for a script).
    modules: Vec<ModuleDesc>,
    /// Where the source text is.
    source_text: SourceText,
}

/// The numbers at the start of a function info record (see `format.rs`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct InfoHead {
    pub length: u32,
    pub param_count: u32,
    pub frame_size: u32,
    pub ic_count: u32,
    pub flags: u32,
    pub source: Option<SourceRange>,
    pub handler_count: u32,
}

/// The layout of the source text section (see `format.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SourceText {
    /// No source text.
    None,
    /// `len` bytes of UTF-8 at file offset `at`.
    Plain { at: usize, len: usize },
    /// A text of `len` bytes in compressed blocks: the table of their ends at file offset
    /// `table`, the compressed bytes (`data_len` of them) right after it.
    Deflate { len: usize, table: usize, data_len: usize },
}

impl SourceText {
    /// The length of the text in bytes.
    pub(crate) fn len(self) -> usize {
        match self {
            SourceText::None => 0,
            SourceText::Plain { len, .. } | SourceText::Deflate { len, .. } => len,
        }
    }
}

impl std::fmt::Debug for Bundle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bundle")
            .field("size", &self.bytes.len())
            .field("functions", &self.function_count)
            .field("strings", &self.string_count)
            .finish()
    }
}

impl Bundle {
    /// Whether `bytes` start with the bundle magic (no other check).
    pub fn is_bundle(bytes: &[u8]) -> bool {
        bytes.starts_with(&BUNDLE_MAGIC)
    }

    /// Checks the header, every table and every function's code, and keeps the bytes.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Bundle, BundleError> {
        let bundle = Bundle::parse(bytes)?;
        crate::verify::verify_bundle(&bundle)?;
        Ok(bundle)
    }

    /// Checks the header and the section table.
    fn parse(bytes: Vec<u8>) -> Result<Bundle, BundleError> {
        if !Bundle::is_bundle(&bytes) {
            return Err(BundleError::at(0, "not a bundle (bad magic)"));
        }
        if bytes.len() < HEADER_SIZE {
            return Err(BundleError::at(bytes.len(), "truncated header"));
        }
        let word = |at: usize| read_u32(&bytes, at).unwrap_or(0);
        let version = word(OFF_VERSION);
        if version != BUNDLE_VERSION {
            return Err(BundleError::at(
                OFF_VERSION,
                format!("bundle version {version}, this reader reads version {BUNDLE_VERSION}"),
            ));
        }
        if word(OFF_HEADER_SIZE) as usize != HEADER_SIZE {
            return Err(BundleError::at(OFF_HEADER_SIZE, "bad header size"));
        }
        let file_size = word(OFF_FILE_SIZE) as usize;
        if file_size != bytes.len() {
            return Err(BundleError::at(
                OFF_FILE_SIZE,
                format!("file is {} bytes, header says {file_size}", bytes.len()),
            ));
        }
        if file_size & (SECTION_ALIGN - 1) != 0 {
            return Err(BundleError::at(OFF_FILE_SIZE, "file size not a multiple of 8"));
        }
        let stored = read_u64(&bytes, OFF_CHECKSUM).unwrap_or(0);
        if checksum(&bytes) != stored {
            return Err(BundleError::at(OFF_CHECKSUM, "checksum mismatch (corrupted bundle)"));
        }
        let flags = word(OFF_FLAGS);
        if flags & !BUNDLE_FLAGS_KNOWN != 0 {
            return Err(BundleError::at(OFF_FLAGS, format!("unknown header flags {flags:#x}")));
        }

        let mut sections = [(0usize, 0usize); SECTION_COUNT];
        for (i, section) in sections.iter_mut().enumerate() {
            let at = OFF_SECTIONS + 8 * i;
            let (offset, size) = (word(at) as usize, word(at + 4) as usize);
            if i >= SECTIONS.len() {
                if (offset, size) != (0, 0) {
                    return Err(BundleError::at(at, format!("reserved section {i} is used")));
                }
                continue;
            }
            if size == 0 {
                if offset != 0 {
                    return Err(BundleError::at(at, format!("empty section {i} has an offset")));
                }
                continue;
            }
            if offset % SECTION_ALIGN != 0
                || offset < HEADER_SIZE
                || offset.checked_add(size).is_none_or(|end| end > bytes.len())
            {
                return Err(BundleError::at(at, format!("section {i} out of bounds or misaligned")));
            }
            *section = (offset, size);
        }
        let mut used: Vec<(usize, usize)> = sections.iter().copied().filter(|s| s.1 > 0).collect();
        used.sort_unstable();
        if used.windows(2).any(|w| w[0].0 + w[0].1 > w[1].0) {
            return Err(BundleError::at(OFF_SECTIONS, "sections overlap"));
        }

        let function_count = word(OFF_FUNCTION_COUNT);
        let string_count = word(OFF_STRING_COUNT);
        let expect = |section: Section, size: u64, what: &str| {
            if sections[section as usize].1 as u64 == size {
                Ok(())
            } else {
                Err(BundleError::at(
                    OFF_SECTIONS + 8 * section as usize,
                    format!("{what} section size does not match the header"),
                ))
            }
        };
        expect(Section::Functions, u64::from(function_count) * FUNCTION_ENTRY_SIZE as u64, "function")?;
        expect(Section::StringTable, u64::from(string_count) * STRING_ENTRY_SIZE as u64, "string table")?;
        if function_count == 0 {
            return Err(BundleError::at(OFF_FUNCTION_COUNT, "no global function"));
        }
        let has_locations = sections[Section::Locations as usize].1 > 0;
        if has_locations != (flags & BUNDLE_FLAG_DEBUG_INFO != 0) {
            return Err(BundleError::at(OFF_FLAGS, "debug-info flag does not match the sections"));
        }
        let (name_at, name_len) = sections[Section::SourceName as usize];
        if std::str::from_utf8(&bytes[name_at..name_at + name_len]).is_err() {
            return Err(BundleError::at(name_at, "source name is not UTF-8"));
        }
        let (modules_at, modules_len) = sections[Section::Modules as usize];
        let modules = match modules_len {
            0 => Vec::new(),
            _ => super::module::decode(&bytes[modules_at..][..modules_len], modules_at, string_count, function_count)?,
        };
        let source_text = parse_source_text(&bytes, sections[Section::SourceText as usize])?;
        Ok(Bundle { bytes, sections, function_count, string_count, modules, source_text })
    }

    /// The name of the file function `id`'s code came from: the key of the module it belongs
    /// to in a bundle of modules, else the source name.
    pub fn function_file(&self, id: u32) -> String {
        let module = self.modules.iter().rfind(|m| m.value.is_none() && m.top_level <= id);
        match module {
            Some(m) => self.string(m.key).to_string_lossy(),
            None => self.source_name(),
        }
    }

    /// The module records of the module code in the bundle (empty for a script).
    pub fn modules(&self) -> &[ModuleDesc] {
        &self.modules
    }

    /// The whole bundle.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Gives the bytes back.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The bytes of a section.
    pub(crate) fn section(&self, section: Section) -> &[u8] {
        let (offset, size) = self.sections[section as usize];
        &self.bytes[offset..offset + size]
    }

    /// The file offset of a section.
    pub(crate) fn section_offset(&self, section: Section) -> usize {
        self.sections[section as usize].0
    }

    fn word(&self, section: Section, at: usize) -> u32 {
        let bytes = self.section(section);
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    }

    /// Word `index` of function `id`'s entry.
    pub(crate) fn function_word(&self, id: u32, index: usize) -> u32 {
        self.word(Section::Functions, id as usize * FUNCTION_ENTRY_SIZE + 4 * index)
    }

    /// The name of the file the bundle was compiled from.
    pub fn source_name(&self) -> String {
        String::from_utf8_lossy(self.section(Section::SourceName)).into_owned()
    }

    /// The hash of the source text recorded by the compiler (0 if none).
    pub fn source_hash(&self) -> u64 {
        read_u64(&self.bytes, OFF_SOURCE_HASH).unwrap_or(0)
    }

    /// Whether the bundle carries source locations.
    pub fn has_debug_info(&self) -> bool {
        self.sections[Section::Locations as usize].1 > 0
    }

    /// The number of functions; function 0 is the global code.
    pub fn function_count(&self) -> u32 {
        self.function_count
    }

    /// The header of function `id` (panics if `id >= function_count()`).
    pub fn function(&self, id: u32) -> FunctionHeader {
        let head = self.info_head(id).map_or_else(InfoHead::default, |(head, _)| head);
        FunctionHeader {
            name: self.function_word(id, FN_NAME),
            length: head.length,
            param_count: head.param_count,
            frame_size: head.frame_size,
            ic_count: head.ic_count,
            flags: FunctionFlags(head.flags),
            source: head.source,
            code_len: self.function_word(id, FN_CODE_LEN),
        }
    }

    /// The numbers at the start of function `id`'s info record, and a reader at its
    /// handlers; `None` if they do not decode (never for a verified bundle).
    pub(crate) fn info_head(&self, id: u32) -> Option<(InfoHead, Leb<'_>)> {
        let mut r = Leb::new(self.section(Section::FunctionInfo), self.function_word(id, FN_INFO) as usize);
        let (length, param_count, frame_size, ic_count, flags) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?, r.u32()?);
        let source = match r.u64()? {
            0 => None,
            start => Some(SourceRange { start: u32::try_from(start - 1).ok()?, len: r.u32()? }),
        };
        let handler_count = r.u32()?;
        Some((InfoHead { length, param_count, frame_size, ic_count, flags, source, handler_count }, r))
    }

    /// The bytecode of function `id`.
    pub fn code(&self, id: u32) -> &[u8] {
        let offset = self.function_word(id, FN_CODE_OFFSET) as usize;
        let len = self.function_word(id, FN_CODE_LEN) as usize;
        &self.section(Section::Code)[offset..offset + len]
    }

    /// The exception handlers of function `id`, inner try regions first.
    pub fn handlers(&self, id: u32) -> Vec<HandlerEntry> {
        self.handlers_iter(id).collect()
    }

    /// The exception handlers of function `id`, without allocating.
    pub fn handlers_iter(&self, id: u32) -> impl ExactSizeIterator<Item = HandlerEntry> + '_ {
        let (count, mut info) = match self.info_head(id) {
            Some((head, r)) => (head.handler_count as usize, r),
            None => (0, Leb::new(&[], 0)),
        };
        (0..count).map(move |_| {
            let mut next = || info.u32().unwrap_or(0);
            let (start, len, target) = (next(), next(), next());
            HandlerEntry { start, end: start.wrapping_add(len), target }
        })
    }

    /// For a `LAZY` function: the string id of the description of the scope its source text
    /// is compiled against (the last number of its info record).
    pub fn lazy_scope(&self, id: u32) -> Option<u32> {
        let (head, mut info) = self.info_head(id)?;
        if !FunctionFlags(head.flags).contains(FunctionFlags::LAZY) {
            return None;
        }
        for _ in 0..3 * head.handler_count {
            info.u32()?;
        }
        info.u32()
    }

    /// The `(pc, line, col)` entries of function `id`, sorted by pc.
    pub fn locations(&self, id: u32) -> Vec<(u32, u32, u32)> {
        self.location_entries(id).collect()
    }

    /// The location entries of function `id`, decoded one after the other.
    pub(crate) fn location_entries(&self, id: u32) -> LocationEntries<'_> {
        let start = self.function_word(id, FN_LOCATION_OFFSET) as usize;
        let len = self.function_word(id, FN_LOCATION_LEN) as usize;
        let run = self.section(Section::Locations).get(start..start.saturating_add(len)).unwrap_or(&[]);
        LocationEntries { run: Leb::new(run, 0), len: run.len(), previous: (0, 0, 0), malformed: false }
    }

    /// `(line, col)` of the instruction at `pc` of function `id`: the last location entry
    /// at or before `pc`.
    pub fn location(&self, id: u32, pc: u32) -> Option<(u32, u32)> {
        let (_, line, col) = self.location_entries(id).take_while(|e| e.0 <= pc).last()?;
        Some((line, col))
    }

    /// The source text of function `id`, if the bundle keeps it. A range that does not
    /// fall on whole characters, or a compressed block that does not inflate (neither
    /// happens in a bundle Iris wrote), gives replacement characters or `None`, never a
    /// panic.
    pub fn function_source(&self, id: u32) -> Option<Cow<'_, str>> {
        let range = self.function(id).source?;
        if range.len == 0 {
            return Some(Cow::Borrowed(""));
        }
        let (start, end) = (range.start as usize, range.start as usize + range.len as usize);
        match self.source_text {
            SourceText::None => None,
            SourceText::Plain { at, len } => {
                let text = self.bytes.get(at..at + len)?.get(start..end)?;
                Some(String::from_utf8_lossy(text))
            }
            SourceText::Deflate { len, table, data_len } => {
                if end > len {
                    return None;
                }
                let end_of = |block: usize| read_u32(&self.bytes, table + 4 * block).unwrap_or(0) as usize;
                let blocks = len.div_ceil(SOURCE_BLOCK_SIZE);
                let data = self.bytes.get(table + 4 * blocks..)?.get(..data_len)?;
                let (first, last) = (start / SOURCE_BLOCK_SIZE, end.saturating_sub(1) / SOURCE_BLOCK_SIZE);
                let mut text = Vec::with_capacity(range.len as usize);
                for block in first..=last.max(first) {
                    let from = if block == 0 { 0 } else { end_of(block - 1) };
                    let expect = SOURCE_BLOCK_SIZE.min(len - block * SOURCE_BLOCK_SIZE);
                    let bytes =
                        miniz_oxide::inflate::decompress_to_vec_with_limit(data.get(from..end_of(block))?, expect)
                            .ok()
                            .filter(|b| b.len() == expect)?;
                    let block_start = block * SOURCE_BLOCK_SIZE;
                    let lo = start.max(block_start) - block_start;
                    let hi = end.min(block_start + expect) - block_start;
                    text.extend_from_slice(bytes.get(lo..hi)?);
                }
                Some(Cow::Owned(String::from_utf8_lossy(&text).into_owned()))
            }
        }
    }

    /// The layout of the source text.
    pub(crate) fn source_text(&self) -> SourceText {
        self.source_text
    }

    /// The size in bytes of every section present, in file order, for reports.
    pub fn section_sizes(&self) -> Vec<(&'static str, usize)> {
        SECTIONS.iter().map(|&s| (s.name(), self.sections[s as usize].1)).filter(|&(_, size)| size > 0).collect()
    }

    /// The number of strings.
    pub fn string_count(&self) -> u32 {
        self.string_count
    }

    /// `(offset, len, kind)` of string `id`.
    pub(crate) fn string_entry(&self, id: u32) -> (usize, usize, u32) {
        let at = id as usize * STRING_ENTRY_SIZE;
        let len_kind = self.word(Section::StringTable, at + 4);
        (self.word(Section::StringTable, at) as usize, (len_kind >> 1) as usize, len_kind & 1)
    }

    /// String `id`, in place (panics if `id >= string_count()`).
    pub fn string(&self, id: u32) -> BundleStr<'_> {
        let (offset, len, kind) = self.string_entry(id);
        if kind == STRING_ONE_BYTE {
            BundleStr::OneByte(&self.section(Section::OneByteChars)[offset..offset + len])
        } else {
            BundleStr::TwoByte(&self.section(Section::TwoByteChars)[offset..offset + 2 * len])
        }
    }

    /// String `id` as UTF-16 units.
    pub fn string_units(&self, id: u32) -> Vec<u16> {
        self.string(id).to_units()
    }
}

/// Checks the source text section's header and block table.
fn parse_source_text(bytes: &[u8], (at, size): (usize, usize)) -> Result<SourceText, BundleError> {
    if size == 0 {
        return Ok(SourceText::None);
    }
    let bad = |message: &str| Err(BundleError::at(at, format!("source text: {message}")));
    if size < 8 {
        return bad("truncated");
    }
    let word = |i: usize| read_u32(bytes, at + 4 * i).unwrap_or(0) as usize;
    let (encoding, len) = (word(0) as u32, word(1));
    match encoding {
        SOURCE_PLAIN if len == size - 8 => Ok(SourceText::Plain { at: at + 8, len }),
        SOURCE_PLAIN => bad("length does not match the section"),
        SOURCE_DEFLATE => {
            let blocks = len.div_ceil(SOURCE_BLOCK_SIZE);
            let data_len = match (size - 8).checked_sub(4 * blocks) {
                Some(n) => n,
                None => return bad("block table larger than the section"),
            };
            let mut previous = 0;
            for i in 0..blocks {
                let end = word(2 + i);
                if end < previous || end > data_len {
                    return bad("block table out of order or out of bounds");
                }
                previous = end;
            }
            if previous != data_len {
                return bad("compressed blocks do not fill the section");
            }
            Ok(SourceText::Deflate { len, table: at + 8, data_len })
        }
        _ => bad("unknown encoding"),
    }
}

/// The location entries of a function's run (see `format.rs`). A verified run decodes
/// whole; a damaged one ends where it stops making sense.
pub(crate) struct LocationEntries<'a> {
    run: Leb<'a>,
    len: usize,
    previous: (u32, u32, u32),
    malformed: bool,
}

impl LocationEntries<'_> {
    /// Whether every byte of the run decoded (once the iterator is exhausted).
    pub(crate) fn decoded_whole(&self) -> bool {
        !self.malformed && self.run.at == self.len
    }

    fn decode(&mut self) -> Option<(u32, u32, u32)> {
        let (pc, line, col) = self.previous;
        let pc = pc.checked_add(self.run.u32()?)?;
        let line = u32::try_from(i64::from(line).checked_add(self.run.i64()?)?).ok()?;
        let col = u32::try_from(i64::from(col).checked_add(self.run.i64()?)?).ok()?;
        Some((pc, line, col))
    }
}

impl Iterator for LocationEntries<'_> {
    type Item = (u32, u32, u32);

    fn next(&mut self) -> Option<(u32, u32, u32)> {
        if self.malformed || self.run.at >= self.len {
            return None;
        }
        match self.decode() {
            Some(entry) => {
                self.previous = entry;
                Some(entry)
            }
            None => {
                self.malformed = true;
                None
            }
        }
    }
}
