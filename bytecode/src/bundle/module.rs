//! The module section: the module records of the module code a bundle holds.
//!
//! A bundle of a script has no module section. A bundle of a module has one record, for its
//! function 0; a bundle of a module graph (`iris compile` of a module) has one per module,
//! each naming its top-level function and, for each request, the module it resolved to when
//! the bundle was made. Every word is a little-endian u32; string ids index the bundle's
//! string table and are checked when the bundle is read, as are request indices and function
//! ids. Environment slots are checked by the VM against the module environment.
//!
//! ```text
//!  module count
//!  per module:  key, top-level function, flags (bit 0: top-level await, bit 1: a value
//!               module, JSON unless bit 2: text or bit 3: bytes), module slot or the value
//!               module's text, request count, import count, export count (a value module
//!               has none of these)
//!    requests:  specifier, resolved key or NONE, line, column, flags (bit 0: `import defer`),
//!               attribute count, attribute count × (key, value)
//!    imports:   request, name or NONE (a namespace) or SOURCE (the module source) or
//!               DEFERRED (the deferred namespace), slot
//!    exports:   kind (0 local, 1 indirect, 2 star), name, then
//!               local: slot, 0 / indirect: request, import name or NONE / star: request, 0
//! ```

use super::BundleError;

/// The word for "no string" (a namespace import, a request not resolved in the bundle).
const NONE: u32 = u32::MAX;
/// The name word of an import of the module source (`import source x from`).
const SOURCE: u32 = u32::MAX - 1;
/// The name word of an import of the deferred namespace (`import defer * as x from`).
const DEFERRED: u32 = u32::MAX - 2;
/// Request flag: `import defer`.
const REQUEST_DEFER: u32 = 1;
/// Module flag: the body uses top-level `await`.
const FLAG_TLA: u32 = 1;
/// Module flag: a value module (JSON unless `FLAG_TEXT` or `FLAG_BYTES`), whose module slot
/// word is the string id of its text.
const FLAG_VALUE: u32 = 2;
/// Module flag (with `FLAG_VALUE`): a text module (`type: "text"`).
const FLAG_TEXT: u32 = 4;
/// Module flag (with `FLAG_VALUE`): a bytes module (`type: "bytes"`), its string one code unit
/// per byte.
const FLAG_BYTES: u32 = 8;

/// What a value module's text is: the module's default export is made from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// `type: "json"`: JSON text.
    Json,
    /// `type: "text"`: the text itself.
    Text,
    /// `type: "bytes"`: bytes, one per code unit.
    Bytes,
}

/// A request of a module: `import ... from "specifier" with { key: "value" }`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestDesc {
    /// The specifier (string id).
    pub specifier: u32,
    /// The key of the module it resolved to when the bundle was made (string id), if the
    /// bundle holds that module.
    pub resolved: Option<u32>,
    /// An `import defer` request.
    pub defer: bool,
    /// Where the first `import`/`export` naming it is (1-based line and column).
    pub line: u32,
    /// See `line`.
    pub col: u32,
    /// The import attributes (string ids), sorted by key.
    pub attributes: Vec<(u32, u32)>,
}

/// What an import binding imports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imported {
    /// The export of this name (a string id).
    Name(u32),
    /// The namespace object.
    Namespace,
    /// The module source object.
    Source,
    /// The deferred namespace object.
    Deferred,
}

/// An import binding: `slot` of the module environment refers to what it imports from
/// request `request`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportDesc {
    /// Index into the module's requests.
    pub request: u32,
    /// What it imports.
    pub name: Imported,
    /// The environment slot.
    pub slot: u32,
}

/// An export of a module (names are string ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportDesc {
    /// A binding of the module environment.
    Local {
        /// The export name.
        name: u32,
        /// The environment slot.
        slot: u32,
    },
    /// An export of a requested module (`import: None`: its namespace).
    Indirect {
        /// The export name.
        name: u32,
        /// Index into the module's requests.
        request: u32,
        /// The name exported there, or `None` for the namespace.
        import: Option<u32>,
    },
    /// Every export but `default` of a requested module.
    Star {
        /// Index into the module's requests.
        request: u32,
    },
}

/// The module record of one module of a bundle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleDesc {
    /// The module's key (string id): its resolved specifier, a path for files.
    pub key: u32,
    /// Its top-level function: creates the module environment and returns the body closure.
    /// The functions of a bundle's modules are in module order: a module's run from its
    /// top-level function to the next module's.
    pub top_level: u32,
    /// For a value module (JSON, text or bytes): what it is and its text (a string id); it
    /// has no functions, requests or entries.
    pub value: Option<(ValueKind, u32)>,
    /// Whether the body uses top-level `await`.
    pub has_tla: bool,
    /// The environment slot that holds the module's identity.
    pub module_slot: u32,
    /// The requested modules.
    pub requests: Vec<RequestDesc>,
    /// The import bindings.
    pub imports: Vec<ImportDesc>,
    /// The exports.
    pub exports: Vec<ExportDesc>,
}

fn opt(v: Option<u32>) -> u32 {
    v.unwrap_or(NONE)
}

/// The words of the module section for `modules`.
pub(crate) fn encode(modules: &[ModuleDesc]) -> Vec<u32> {
    let mut w = vec![modules.len() as u32];
    for m in modules {
        let value_flags = match m.value {
            None => 0,
            Some((ValueKind::Json, _)) => FLAG_VALUE,
            Some((ValueKind::Text, _)) => FLAG_VALUE | FLAG_TEXT,
            Some((ValueKind::Bytes, _)) => FLAG_VALUE | FLAG_BYTES,
        };
        let flags = if m.has_tla { FLAG_TLA } else { 0 } | value_flags;
        w.extend([m.key, m.top_level, flags, m.value.map_or(m.module_slot, |v| v.1)]);
        w.extend([m.requests.len() as u32, m.imports.len() as u32, m.exports.len() as u32]);
        for r in &m.requests {
            let flags = if r.defer { REQUEST_DEFER } else { 0 };
            w.extend([r.specifier, opt(r.resolved), r.line, r.col, flags, r.attributes.len() as u32]);
            for &(k, v) in &r.attributes {
                w.extend([k, v]);
            }
        }
        for i in &m.imports {
            let name = match i.name {
                Imported::Name(n) => n,
                Imported::Namespace => NONE,
                Imported::Source => SOURCE,
                Imported::Deferred => DEFERRED,
            };
            w.extend([i.request, name, i.slot]);
        }
        for e in &m.exports {
            w.extend(match *e {
                ExportDesc::Local { name, slot } => [0, name, slot, 0],
                ExportDesc::Indirect { name, request, import } => [1, name, request, opt(import)],
                ExportDesc::Star { request } => [2, NONE, request, 0],
            });
        }
    }
    w
}

/// Reads the words of a module section, checking every string id against `strings`, every
/// function id against `functions` and every request index.
pub(crate) fn decode(bytes: &[u8], base: usize, strings: u32, functions: u32) -> Result<Vec<ModuleDesc>, BundleError> {
    let mut r = Reader { bytes, at: 0, base };
    let count = r.word()?;
    let mut modules = Vec::new();
    for _ in 0..count {
        let key = r.string(strings)?;
        let top_level = r.word()?;
        let flags = r.word()?;
        let kind = match flags & !FLAG_TLA {
            0 => None,
            FLAG_VALUE => Some(ValueKind::Json),
            f if f == FLAG_VALUE | FLAG_TEXT => Some(ValueKind::Text),
            f if f == FLAG_VALUE | FLAG_BYTES => Some(ValueKind::Bytes),
            _ => return Err(r.error("unknown module flags")),
        };
        let is_value = kind.is_some();
        // Code modules' functions follow each other, the first module's from function 0; a
        // value module's word is where the next code module's start.
        let after_last = modules.iter().filter(|m: &&ModuleDesc| m.value.is_none()).map(|m| m.top_level + 1).max();
        let in_order = top_level >= after_last.unwrap_or(0) && (!modules.is_empty() || top_level == 0);
        if (!is_value && top_level >= functions) || !in_order {
            return Err(r.error("module top-level function out of range or out of order"));
        }
        let module_slot = r.word()?;
        let value = match kind {
            Some(kind) if module_slot < strings => Some((kind, module_slot)),
            Some(_) => return Err(r.error("module string id out of range")),
            None => None,
        };
        let (nr, ni, ne) = (r.count()?, r.count()?, r.count()?);
        let mut requests = Vec::new();
        for _ in 0..nr {
            let specifier = r.string(strings)?;
            let resolved = r.opt_string(strings)?;
            let (line, col) = (r.word()?, r.word()?);
            let flags = r.word()?;
            if flags & !REQUEST_DEFER != 0 {
                return Err(r.error("unknown module request flags"));
            }
            let defer = flags & REQUEST_DEFER != 0;
            let na = r.count()?;
            let mut attributes = Vec::new();
            for _ in 0..na {
                attributes.push((r.string(strings)?, r.string(strings)?));
            }
            requests.push(RequestDesc { specifier, resolved, defer, line, col, attributes });
        }
        let request = |r: &mut Reader| -> Result<u32, BundleError> {
            let q = r.word()?;
            if q as usize >= requests.len() {
                return Err(r.error("module request index out of range"));
            }
            Ok(q)
        };
        let mut imports = Vec::new();
        for _ in 0..ni {
            let req = request(&mut r)?;
            let name = match r.word()? {
                NONE => Imported::Namespace,
                SOURCE => Imported::Source,
                DEFERRED => Imported::Deferred,
                n if n < strings => Imported::Name(n),
                _ => return Err(r.error("module string id out of range")),
            };
            imports.push(ImportDesc { request: req, name, slot: r.word()? });
        }
        let mut exports = Vec::new();
        for _ in 0..ne {
            let kind = r.word()?;
            let e = match kind {
                0 => {
                    let name = r.string(strings)?;
                    let slot = r.word()?;
                    r.zero()?;
                    ExportDesc::Local { name, slot }
                }
                1 => {
                    let name = r.string(strings)?;
                    let req = request(&mut r)?;
                    ExportDesc::Indirect { name, request: req, import: r.opt_string(strings)? }
                }
                2 => {
                    if r.word()? != NONE {
                        return Err(r.error("a star export has a name"));
                    }
                    let req = request(&mut r)?;
                    r.zero()?;
                    ExportDesc::Star { request: req }
                }
                _ => return Err(r.error("unknown export kind")),
            };
            exports.push(e);
        }
        if is_value && !(requests.is_empty() && imports.is_empty() && exports.is_empty()) {
            return Err(r.error("a value module with requests or entries"));
        }
        modules.push(ModuleDesc {
            key,
            top_level,
            value,
            has_tla: flags & FLAG_TLA != 0,
            module_slot: if is_value { 0 } else { module_slot },
            requests,
            imports,
            exports,
        });
    }
    if r.at != bytes.len() {
        return Err(r.error("trailing bytes after the module records"));
    }
    Ok(modules)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The section's file offset, for errors.
    base: usize,
}

impl Reader<'_> {
    fn error(&self, message: &str) -> BundleError {
        BundleError::at(self.base + self.at, message)
    }

    fn word(&mut self) -> Result<u32, BundleError> {
        let b = self.bytes.get(self.at..self.at + 4).ok_or_else(|| self.error("truncated module section"))?;
        self.at += 4;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A count of entries, each at least one word: bounded by what is left of the section,
    /// so a hostile count cannot make the reader allocate more than the section's size.
    fn count(&mut self) -> Result<u32, BundleError> {
        let n = self.word()?;
        if n as usize > (self.bytes.len() - self.at) / 4 {
            return Err(self.error("module section count larger than the section"));
        }
        Ok(n)
    }

    fn zero(&mut self) -> Result<(), BundleError> {
        match self.word()? {
            0 => Ok(()),
            _ => Err(self.error("reserved module word is not 0")),
        }
    }

    fn string(&mut self, strings: u32) -> Result<u32, BundleError> {
        let s = self.word()?;
        if s >= strings {
            return Err(self.error("module string id out of range"));
        }
        Ok(s)
    }

    fn opt_string(&mut self, strings: u32) -> Result<Option<u32>, BundleError> {
        match self.word()? {
            NONE => Ok(None),
            s if s < strings => Ok(Some(s)),
            _ => Err(self.error("module string id out of range")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<ModuleDesc> {
        vec![ModuleDesc {
            key: 0,
            top_level: 0,
            value: None,
            has_tla: true,
            module_slot: 3,
            requests: vec![RequestDesc {
                specifier: 1,
                resolved: None,
                defer: true,
                line: 2,
                col: 5,
                attributes: vec![(2, 3)],
            }],
            imports: vec![
                ImportDesc { request: 0, name: Imported::Name(4), slot: 1 },
                ImportDesc { request: 0, name: Imported::Namespace, slot: 2 },
                ImportDesc { request: 0, name: Imported::Source, slot: 5 },
            ],
            exports: vec![
                ExportDesc::Local { name: 4, slot: 0 },
                ExportDesc::Indirect { name: 1, request: 0, import: None },
                ExportDesc::Star { request: 0 },
            ],
        }]
        .into_iter()
        .chain([ValueKind::Json, ValueKind::Text, ValueKind::Bytes].map(|kind| ModuleDesc {
            key: 1,
            top_level: 1,
            value: Some((kind, 2)),
            ..ModuleDesc::default()
        }))
        .collect()
    }

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn records_round_trip() {
        let m = sample();
        assert_eq!(decode(&bytes(&encode(&m)), 0, 5, 1).unwrap(), m);
    }

    #[test]
    fn bad_records_are_rejected() {
        let words = encode(&sample());
        // A string id past the table, a function past the table.
        assert!(decode(&bytes(&words), 0, 4, 1).is_err());
        assert!(decode(&bytes(&words), 0, 5, 0).is_err());
        // Every truncation, and a huge count.
        for n in 0..words.len() {
            assert!(decode(&bytes(&words[..n]), 0, 5, 1).is_err(), "truncated to {n} words");
        }
        let mut huge = words.clone();
        huge[5] = u32::MAX;
        assert!(decode(&bytes(&huge), 0, 5, 1).is_err());
        // A value module's flags: text and bytes at once, or either without the value flag.
        let first_value = words.len() - 3 * 7;
        for flags in [FLAG_VALUE | FLAG_TEXT | FLAG_BYTES, FLAG_TEXT, FLAG_BYTES, 16] {
            let mut bad = words.clone();
            bad[first_value + 2] = flags;
            assert!(decode(&bytes(&bad), 0, 5, 1).is_err(), "flags {flags}");
        }
    }
}
