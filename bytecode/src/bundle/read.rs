//! `Bundle`: a verified bundle read in place.

use super::format::*;
use super::module::ModuleDesc;
use super::{BundleError, BundleStr, FunctionFlags, FunctionHeader, HandlerEntry};

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
        for (section, entry) in [(Section::Handlers, HANDLER_ENTRY_SIZE), (Section::Locations, LOCATION_ENTRY_SIZE)] {
            if sections[section as usize].1 % entry != 0 {
                return Err(BundleError::at(
                    OFF_SECTIONS + 8 * section as usize,
                    format!("section {} is not a whole number of entries", section as usize),
                ));
            }
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
        Ok(Bundle { bytes, sections, function_count, string_count, modules })
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
        let source = self.function_word(id, FN_SOURCE);
        FunctionHeader {
            name: self.function_word(id, FN_NAME),
            length: self.function_word(id, FN_LENGTH),
            param_count: self.function_word(id, FN_PARAM_COUNT),
            frame_size: self.function_word(id, FN_FRAME_SIZE),
            ic_count: self.function_word(id, FN_IC_COUNT),
            flags: FunctionFlags(self.function_word(id, FN_FLAGS)),
            source: (source != NO_SOURCE).then_some(source),
            code_len: self.function_word(id, FN_CODE_LEN),
        }
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
        let start = self.function_word(id, FN_HANDLER_START) as usize;
        let count = self.function_word(id, FN_HANDLER_COUNT) as usize;
        (start..start + count).map(move |i| {
            let at = i * HANDLER_ENTRY_SIZE;
            HandlerEntry {
                start: self.word(Section::Handlers, at),
                end: self.word(Section::Handlers, at + 4),
                target: self.word(Section::Handlers, at + 8),
            }
        })
    }

    /// The `(pc, line, col)` entries of function `id`, sorted by pc.
    pub fn locations(&self, id: u32) -> Vec<(u32, u32, u32)> {
        let (start, count) = self.location_run(id);
        (start..start + count).map(|i| self.location_entry(i)).collect()
    }

    fn location_run(&self, id: u32) -> (usize, usize) {
        (self.function_word(id, FN_LOCATION_START) as usize, self.function_word(id, FN_LOCATION_COUNT) as usize)
    }

    fn location_entry(&self, i: usize) -> (u32, u32, u32) {
        let at = i * LOCATION_ENTRY_SIZE;
        (
            self.word(Section::Locations, at),
            self.word(Section::Locations, at + 4),
            self.word(Section::Locations, at + 8),
        )
    }

    /// `(line, col)` of the instruction at `pc` of function `id`: the last location entry
    /// at or before `pc`.
    pub fn location(&self, id: u32, pc: u32) -> Option<(u32, u32)> {
        let (start, count) = self.location_run(id);
        // Binary search for the number of entries with entry pc <= pc.
        let (mut lo, mut hi) = (0, count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.location_entry(start + mid).0 <= pc {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let (_, line, col) = self.location_entry(start + lo.checked_sub(1)?);
        Some((line, col))
    }

    /// The number of strings.
    pub fn string_count(&self) -> u32 {
        self.string_count
    }

    /// `(offset, len, kind)` of string `id`.
    pub(crate) fn string_entry(&self, id: u32) -> (usize, usize, u32) {
        let at = id as usize * STRING_ENTRY_SIZE;
        (
            self.word(Section::StringTable, at) as usize,
            self.word(Section::StringTable, at + 4) as usize,
            self.word(Section::StringTable, at + 8),
        )
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
