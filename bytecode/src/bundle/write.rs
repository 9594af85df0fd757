//! `BundleBuilder`: lays out a bundle from the compiler's functions and strings.

use hashbrown::HashMap;

use super::format::*;
use super::module::{self, ModuleDesc};
use super::{BundleError, FunctionDesc, FunctionFlags, SourceMode};

/// Collects strings and functions and writes the bundle bytes.
pub struct BundleBuilder {
    source_name: String,
    source_hash: u64,
    strings: Vec<Vec<u16>>,
    string_ids: HashMap<Vec<u16>, u32>,
    functions: Vec<Option<FunctionDesc>>,
    modules: Vec<ModuleDesc>,
    source_text: String,
    source_mode: SourceMode,
}

impl BundleBuilder {
    /// A builder for a bundle compiled from the file `source_name`.
    pub fn new(source_name: &str) -> BundleBuilder {
        BundleBuilder {
            source_name: source_name.to_string(),
            source_hash: 0,
            strings: Vec::new(),
            string_ids: HashMap::new(),
            functions: Vec::new(),
            modules: Vec::new(),
            source_text: String::new(),
            source_mode: SourceMode::Plain,
        }
    }

    /// How the bundle is to keep the source text (plain by default).
    pub fn set_source_mode(&mut self, mode: SourceMode) {
        self.source_mode = mode;
    }

    /// Appends `text` to the bundle's source text; returns the offset it starts at, which
    /// the ranges of its functions' text are relative to.
    pub fn add_source_text(&mut self, text: &str) -> u32 {
        let base = self.source_text.len();
        self.source_text.push_str(text);
        // Past 4 GiB, `try_finish` fails; the offset returned then does not matter.
        u32::try_from(base).unwrap_or(u32::MAX)
    }

    /// [`BundleBuilder::add_source_text`] with a text it may keep (not copied when it is the
    /// first).
    pub fn add_source_string(&mut self, text: String) -> u32 {
        if self.source_text.is_empty() {
            self.source_text = text;
            return 0;
        }
        self.add_source_text(&text)
    }

    /// Records the hash of the source text (see [`hash_source`]).
    pub fn set_source_hash(&mut self, hash: u64) {
        self.source_hash = hash;
    }

    /// The id of the string `units`, added if new. It is stored one-byte if every unit is
    /// below 256.
    pub fn add_string(&mut self, units: &[u16]) -> u32 {
        if let Some(&id) = self.string_ids.get(units) {
            return id;
        }
        let id = self.strings.len() as u32;
        self.strings.push(units.to_vec());
        self.string_ids.insert(units.to_vec(), id);
        id
    }

    /// The id of the string `s` (converted to UTF-16), added if new.
    pub fn add_str(&mut self, s: &str) -> u32 {
        let units: Vec<u16> = s.encode_utf16().collect();
        self.add_string(&units)
    }

    /// The number of functions reserved so far (the id the next one gets).
    pub fn function_count(&self) -> u32 {
        self.functions.len() as u32
    }

    /// The number of strings added so far.
    pub fn string_count(&self) -> u32 {
        self.strings.len() as u32
    }

    /// A new function id, defined later with [`BundleBuilder::define_function`]. Ids follow
    /// reservation order; function 0 is the global code.
    pub fn reserve_function(&mut self) -> u32 {
        self.functions.push(None);
        self.functions.len() as u32 - 1
    }

    /// Defines reserved function `id` (a later definition replaces an earlier one).
    pub fn define_function(&mut self, id: u32, f: FunctionDesc) {
        let index = id as usize;
        if index >= self.functions.len() {
            self.functions.resize(index + 1, None);
        }
        self.functions[index] = Some(f);
    }

    /// Adds the module record of a module whose code the bundle holds.
    pub fn add_module(&mut self, m: ModuleDesc) {
        self.modules.push(m);
    }

    /// Writes the bundle. A function reserved but never defined is written with empty
    /// code, which the reader rejects. Panics only if the bundle would exceed 4 GiB; see
    /// [`BundleBuilder::try_finish`].
    pub fn finish(self) -> Vec<u8> {
        match self.try_finish() {
            Ok(bytes) => bytes,
            Err(e) => panic!("{e}"),
        }
    }

    /// Writes the bundle, or fails if it would exceed the 4 GiB the format addresses.
    pub fn try_finish(self) -> Result<Vec<u8>, BundleError> {
        let too_big = || BundleError::new("bundle larger than 4 GiB");
        let w32 = |v: usize| u32::try_from(v).map_err(|_| too_big());

        // Strings.
        let mut string_table = Vec::with_capacity(self.strings.len() * STRING_ENTRY_SIZE);
        let mut one_byte = Vec::new();
        let mut two_byte = Vec::new();
        for units in &self.strings {
            let (offset, kind) = if units.iter().all(|&u| u < 256) {
                let offset = one_byte.len();
                one_byte.extend(units.iter().map(|&u| u as u8));
                (offset, STRING_ONE_BYTE)
            } else {
                let offset = two_byte.len();
                for &u in units {
                    two_byte.extend_from_slice(&u.to_le_bytes());
                }
                (offset, STRING_TWO_BYTE)
            };
            let len = u32::try_from(units.len()).ok().filter(|&n| n < 1 << 31).ok_or_else(too_big)?;
            for word in [w32(offset)?, len << 1 | kind] {
                string_table.extend_from_slice(&word.to_le_bytes());
            }
        }

        // Functions with their info records, code and locations.
        let keep_source = self.source_mode != SourceMode::Stripped;
        let mut functions = Vec::with_capacity(self.functions.len() * FUNCTION_ENTRY_SIZE);
        let mut info = Vec::new();
        let mut code = Vec::new();
        let mut locations = Vec::new();
        let empty = FunctionDesc::default();
        for f in &self.functions {
            let f = f.as_ref().unwrap_or(&empty);
            let mut words = [0u32; FUNCTION_ENTRY_SIZE / 4];
            words[FN_NAME] = f.name;
            words[FN_CODE_OFFSET] = w32(code.len())?;
            words[FN_CODE_LEN] = w32(f.code.len())?;
            words[FN_INFO] = w32(info.len())?;
            words[FN_LOCATION_OFFSET] = w32(locations.len())?;
            code.extend_from_slice(&f.code);
            for v in [f.length, f.param_count, f.frame_size, f.ic_count, f.flags.0] {
                put_leb(&mut info, v);
            }
            match f.source {
                Some(r) if keep_source => {
                    put_leb64(&mut info, u64::from(r.start) + 1);
                    put_leb(&mut info, r.len);
                }
                _ => put_leb(&mut info, 0),
            }
            put_leb(&mut info, w32(f.handlers.len())?);
            for h in &f.handlers {
                for v in [h.start, h.end.wrapping_sub(h.start), h.target] {
                    put_leb(&mut info, v);
                }
            }
            if f.flags.contains(FunctionFlags::LAZY) {
                put_leb(&mut info, f.lazy_scope.unwrap_or(0));
            }
            let mut previous = (0u32, 0u32, 0u32);
            for &(pc, line, col) in &f.locations {
                put_leb(&mut locations, pc.wrapping_sub(previous.0));
                put_leb64(&mut locations, zigzag(i64::from(line) - i64::from(previous.1)));
                put_leb64(&mut locations, zigzag(i64::from(col) - i64::from(previous.2)));
                previous = (pc, line, col);
            }
            words[FN_LOCATION_LEN] = w32(locations.len())? - words[FN_LOCATION_OFFSET];
            for word in words {
                functions.extend_from_slice(&word.to_le_bytes());
            }
        }
        // The section: an encoding header, then the text as it is (not copied until it goes
        // into the bundle) or compressed.
        let (source_head, source_body): (Vec<u8>, &[u8]) = match self.source_mode {
            SourceMode::Stripped => (Vec::new(), &[]),
            _ if self.source_text.is_empty() => (Vec::new(), &[]),
            SourceMode::Plain => {
                (source_header(SOURCE_PLAIN, &self.source_text)?.to_vec(), self.source_text.as_bytes())
            }
            SourceMode::Compressed => (compress_source_text(&self.source_text)?, &[]),
        };

        let modules: Vec<u8> = match self.modules.is_empty() {
            true => Vec::new(),
            false => module::encode(&self.modules).iter().flat_map(|w| w.to_le_bytes()).collect(),
        };
        // Each section in one or two parts.
        let contents: [(Section, &[u8], &[u8]); 10] = [
            (Section::Functions, &functions, &[]),
            (Section::FunctionInfo, &info, &[]),
            (Section::StringTable, &string_table, &[]),
            (Section::OneByteChars, &one_byte, &[]),
            (Section::TwoByteChars, &two_byte, &[]),
            (Section::Code, &code, &[]),
            (Section::Locations, &locations, &[]),
            (Section::SourceName, self.source_name.as_bytes(), &[]),
            (Section::Modules, &modules, &[]),
            (Section::SourceText, &source_head, source_body),
        ];
        debug_assert!(contents.iter().map(|c| c.0).eq(SECTIONS));

        // Made at its final size: a large program's bundle is not copied as it grows.
        let size = contents.iter().fold(HEADER_SIZE, |at, (_, a, b)| align_up(align_up(at) + a.len() + b.len()));
        let mut out = Vec::with_capacity(size);
        out.resize(HEADER_SIZE, 0);
        let mut table = [(0u32, 0u32); SECTION_COUNT];
        for (section, head, body) in contents {
            out.resize(align_up(out.len()), 0);
            if !head.is_empty() || !body.is_empty() {
                table[section as usize] = (w32(out.len())?, w32(head.len() + body.len())?);
                out.extend_from_slice(head);
                out.extend_from_slice(body);
            }
        }
        out.resize(align_up(out.len()), 0);
        let file_size = w32(out.len())?;

        let flags = if locations.is_empty() { 0 } else { BUNDLE_FLAG_DEBUG_INFO };
        out[..8].copy_from_slice(&BUNDLE_MAGIC);
        let mut put = |at: usize, v: u32| out[at..at + 4].copy_from_slice(&v.to_le_bytes());
        put(OFF_VERSION, BUNDLE_VERSION);
        put(OFF_FLAGS, flags);
        put(OFF_HEADER_SIZE, HEADER_SIZE as u32);
        put(OFF_FILE_SIZE, file_size);
        put(OFF_FUNCTION_COUNT, w32(self.functions.len())?);
        put(OFF_STRING_COUNT, w32(self.strings.len())?);
        for (i, (offset, size)) in table.into_iter().enumerate() {
            put(OFF_SECTIONS + 8 * i, offset);
            put(OFF_SECTIONS + 8 * i + 4, size);
        }
        out[OFF_SOURCE_HASH..OFF_SOURCE_HASH + 8].copy_from_slice(&self.source_hash.to_le_bytes());
        let sum = checksum(&out);
        out[OFF_CHECKSUM..OFF_CHECKSUM + 8].copy_from_slice(&sum.to_le_bytes());
        Ok(out)
    }
}

/// The first 8 bytes of the source text section: the encoding and the text's length.
fn source_header(encoding: u32, text: &str) -> Result<[u8; 8], BundleError> {
    let len = u32::try_from(text.len()).map_err(|_| BundleError::new("source text larger than 4 GiB"))?;
    let mut head = [0u8; 8];
    head[..4].copy_from_slice(&encoding.to_le_bytes());
    head[4..].copy_from_slice(&len.to_le_bytes());
    Ok(head)
}

/// The source text section of a compressed text, block by block (see `format.rs`).
fn compress_source_text(text: &str) -> Result<Vec<u8>, BundleError> {
    let mut out = Vec::with_capacity(text.len() / 4);
    out.extend_from_slice(&source_header(SOURCE_DEFLATE, text)?);
    // Level 6: zlib's default, nearly the ratio of the highest levels at a third of the time.
    let blocks: Vec<Vec<u8>> = text
        .as_bytes()
        .chunks(SOURCE_BLOCK_SIZE)
        .map(|block| miniz_oxide::deflate::compress_to_vec(block, 6))
        .collect();
    let mut end = 0usize;
    for b in &blocks {
        end += b.len();
        let end = u32::try_from(end).map_err(|_| BundleError::new("source text larger than 4 GiB"))?;
        out.extend_from_slice(&end.to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    Ok(out)
}
