//! The Unicode data regular expressions need: the sets behind `\p{..}` (General_Category,
//! Script, Script_Extensions, the binary properties of table 67 and the properties of
//! strings of table 68), simple case folding and the case-equivalence classes of both
//! Canonicalize rules, and ID_Start/ID_Continue for group names.
//!
//! Character properties and case folding come from ICU4X (`icu_properties`,
//! `icu_casemap`, with their compiled data; the Unicode version is theirs). The properties
//! of strings, which ICU4X does not carry (but for Basic_Emoji), are read from Unicode's
//! data files `emoji-sequences.txt` and `emoji-zwj-sequences.txt` (Unicode Emoji 17.0,
//! reduced to their data fields), kept in `data/` beside this file.

use std::collections::HashMap;
use std::sync::OnceLock;

use icu_casemap::CaseMapper;
use icu_properties::props::{GeneralCategory, GeneralCategoryGroup, IdContinue, IdStart, Script};
use icu_properties::script::ScriptWithExtensions;
use icu_properties::{CodePointMapData, CodePointSetData, PropertyParser};

use super::charset::{CharSet, MAX_CODE_POINT, MAX_CODE_UNIT};

/// What a `\p{..}` names.
pub(super) enum Property {
    /// A set of code points.
    Chars(CharSet),
    /// A property of strings (`v` mode): its single code points and its longer strings.
    Strings(CharSet, Vec<Vec<u32>>),
}

/// The property `\p{text}` names, or None if it names none (22.2.2.9
/// UnicodeMatchProperty and UnicodeMatchPropertyValue: names and aliases exactly as listed,
/// no loose matching). Properties of strings are returned whatever the mode; the parser
/// decides where they are allowed.
pub(super) fn property(text: &str) -> Option<Property> {
    if let Some((name, value)) = text.split_once('=') {
        return match name {
            "General_Category" | "gc" => general_category(value).map(Property::Chars),
            "Script" | "sc" => {
                let script = PropertyParser::<Script>::new().get_strict(value)?;
                Some(Property::Chars(ranges(CodePointMapData::<Script>::new().iter_ranges_for_value(script))))
            }
            "Script_Extensions" | "scx" => {
                let script = PropertyParser::<Script>::new().get_strict(value)?;
                let scx = ScriptWithExtensions::new();
                Some(Property::Chars(ranges(scx.get_script_extensions_ranges(script))))
            }
            _ => None,
        };
    }
    match text {
        "Any" => Some(Property::Chars(CharSet::from_ranges(&[(0, MAX_CODE_POINT)]))),
        "ASCII" => Some(Property::Chars(CharSet::from_ranges(&[(0, 0x7F)]))),
        // White_Space's third alias (PropertyAliases.txt), which ICU4X does not match.
        "space" => property("White_Space"),
        "Assigned" => {
            let unassigned =
                ranges(CodePointMapData::<GeneralCategory>::new().iter_ranges_for_value(GeneralCategory::Unassigned));
            Some(Property::Chars(unassigned.complement(MAX_CODE_POINT)))
        }
        _ => {
            if let Some(set) = CodePointSetData::new_for_ecma262(text.as_bytes()) {
                return Some(Property::Chars(ranges(set.iter_ranges())));
            }
            if let Some(p) = string_property(text) {
                return Some(p);
            }
            general_category(text).map(Property::Chars)
        }
    }
}

fn general_category(value: &str) -> Option<CharSet> {
    let group = PropertyParser::<GeneralCategoryGroup>::new().get_strict(value)?;
    Some(ranges(CodePointMapData::<GeneralCategory>::new().iter_ranges_for_group(group)))
}

fn ranges(it: impl Iterator<Item = std::ops::RangeInclusive<u32>>) -> CharSet {
    let mut set = CharSet::new();
    for r in it {
        set.add_range(*r.start(), *r.end());
    }
    set
}

/// The properties of strings (table 68).
fn string_property(name: &str) -> Option<Property> {
    const PARTS: [&str; 6] = [
        "Basic_Emoji",
        "Emoji_Keycap_Sequence",
        "RGI_Emoji_Modifier_Sequence",
        "RGI_Emoji_Flag_Sequence",
        "RGI_Emoji_Tag_Sequence",
        "RGI_Emoji_ZWJ_Sequence",
    ];
    let wanted: Vec<&str> = match name {
        // RGI_Emoji is the union of the other six (UTS #51 ED-27).
        "RGI_Emoji" => PARTS.to_vec(),
        _ if PARTS.contains(&name) => vec![name],
        _ => return None,
    };
    let mut chars = CharSet::new();
    let mut strings = Vec::new();
    for part in wanted {
        for seq in emoji_sequences().get(part).into_iter().flatten() {
            match seq.as_slice() {
                [c] => chars.add(*c),
                _ => strings.push(seq.clone()),
            }
        }
    }
    Some(Property::Strings(chars, strings))
}

/// The sequences of `emoji-sequences.txt` and `emoji-zwj-sequences.txt` by type field. A
/// line is `code points ; type ; name # comment`, where the code points are one code point,
/// a range `X..Y` of single code points, or a space-separated sequence.
fn emoji_sequences() -> &'static HashMap<&'static str, Vec<Vec<u32>>> {
    static TABLE: OnceLock<HashMap<&'static str, Vec<Vec<u32>>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: HashMap<&'static str, Vec<Vec<u32>>> = HashMap::new();
        let files = [include_str!("data/emoji-sequences.txt"), include_str!("data/emoji-zwj-sequences.txt")];
        for line in files.iter().flat_map(|f| f.lines()) {
            let line = line.split('#').next().unwrap_or("");
            let mut fields = line.split(';').map(str::trim);
            let (Some(points), Some(kind)) = (fields.next(), fields.next()) else {
                continue;
            };
            if points.is_empty() {
                continue;
            }
            let hex = |s: &str| u32::from_str_radix(s, 16).ok();
            let entry = table.entry(kind).or_default();
            if let Some((lo, hi)) = points.split_once("..") {
                if let (Some(lo), Some(hi)) = (hex(lo), hex(hi)) {
                    entry.extend((lo..=hi).map(|c| vec![c]));
                }
            } else {
                let seq: Option<Vec<u32>> = points.split_whitespace().map(hex).collect();
                entry.extend(seq);
            }
        }
        table
    })
}

/// ID_Start.
pub(super) fn is_id_start(c: u32) -> bool {
    CodePointSetData::new::<IdStart>().contains32(c)
}

/// ID_Continue.
pub(super) fn is_id_continue(c: u32) -> bool {
    CodePointSetData::new::<IdContinue>().contains32(c)
}

/// scf(c): the simple case folding of CaseFolding.txt (status C and S), Canonicalize in the
/// Unicode modes.
pub(super) fn simple_fold(c: u32) -> u32 {
    if c < 0x80 {
        return u32::from((c as u8).to_ascii_lowercase());
    }
    match char::from_u32(c) {
        Some(ch) => u32::from(CaseMapper::new().simple_fold(ch)),
        None => c,
    }
}

/// 22.2.2.7.3 Canonicalize (rer, ch) with rer.[[IgnoreCase]] true and neither Unicode flag:
/// the single-code-unit full uppercase of `ch`, unless that maps a non-ASCII unit to an
/// ASCII one.
fn canonicalize_legacy(ch: u32) -> u32 {
    // 1-2. Surrogates are not characters; they have no case.
    let Some(c) = char::from_u32(ch) else {
        return ch;
    };
    // 3-4. toUppercase per the Unicode Default Case Conversion algorithm; if the result is
    // not exactly one code unit, return ch.
    let mut upper = c.to_uppercase();
    let (Some(u), None) = (upper.next(), upper.next()) else {
        return ch;
    };
    let cu = u32::from(u);
    if cu > MAX_CODE_UNIT {
        return ch;
    }
    // 5-6. Do not map non-ASCII characters to ASCII.
    if ch >= 128 && cu < 128 {
        return ch;
    }
    cu
}

/// Case folding under one Canonicalize rule: the canonical value of each character and the
/// classes of characters sharing one (only classes of two or more).
pub(super) struct Folding {
    /// Canonicalize of each BMP character.
    bmp: Vec<u16>,
    /// Whether characters beyond the BMP fold (the Unicode rule).
    unicode: bool,
    /// Class index of each character that shares its canonical value with another.
    class_of: HashMap<u32, u32>,
    /// Members of each class, sorted.
    classes: Vec<Vec<u32>>,
    /// Every character in some class, sorted.
    members: Vec<u32>,
    /// The characters whose canonical value is another character.
    changing: CharSet,
}

impl Folding {
    /// The folding of the Unicode modes (simple case folding) or of legacy mode.
    pub(super) fn get(unicode: bool) -> &'static Folding {
        static UNICODE: OnceLock<Folding> = OnceLock::new();
        static LEGACY: OnceLock<Folding> = OnceLock::new();
        if unicode {
            UNICODE.get_or_init(|| Folding::build(true))
        } else {
            LEGACY.get_or_init(|| Folding::build(false))
        }
    }

    fn build(unicode: bool) -> Folding {
        let canon = |c: u32| if unicode { simple_fold(c) } else { canonicalize_legacy(c) };
        let bmp: Vec<u16> = (0..=MAX_CODE_UNIT).map(|c| canon(c) as u16).collect();
        let max = if unicode { MAX_CODE_POINT } else { MAX_CODE_UNIT };
        // A class is keyed by its canonical value: the characters mapping to it, and the
        // value itself when it is its own canonical form.
        let mut by_canon: HashMap<u32, Vec<u32>> = HashMap::new();
        for c in 0..=max {
            let k = if c <= MAX_CODE_UNIT { u32::from(bmp[c as usize]) } else { canon(c) };
            if k != c {
                by_canon.entry(k).or_default().push(c);
            }
        }
        let mut classes: Vec<Vec<u32>> = by_canon
            .into_iter()
            .map(|(k, mut members)| {
                if canon(k) == k {
                    members.push(k);
                }
                members.sort_unstable();
                members
            })
            .filter(|members| members.len() > 1)
            .collect();
        classes.sort();
        let mut class_of = HashMap::new();
        let mut members = Vec::new();
        for (index, class) in classes.iter().enumerate() {
            for &c in class {
                class_of.insert(c, index as u32);
                members.push(c);
            }
        }
        members.sort_unstable();
        let mut changing = CharSet::new();
        for &c in &members {
            let k = if c <= MAX_CODE_UNIT { u32::from(bmp[c as usize]) } else { canon(c) };
            if k != c {
                changing.add(c);
            }
        }
        Folding { bmp, unicode, class_of, classes, members, changing }
    }

    /// Canonicalize(ch).
    #[inline]
    pub(super) fn canon(&self, c: u32) -> u32 {
        match self.bmp.get(c as usize) {
            Some(&k) => u32::from(k),
            None if self.unicode => simple_fold(c),
            None => c,
        }
    }

    /// The characters that Canonicalize like `c` (always including `c`).
    pub(super) fn equivalents(&self, c: u32) -> CharSet {
        let mut set = CharSet::single(c);
        if let Some(&class) = self.class_of.get(&c) {
            for &m in &self.classes[class as usize] {
                set.add(m);
            }
        }
        set
    }

    /// Closes a set under case equivalence: the characters `ch` such that some member `a`
    /// has Canonicalize(a) = Canonicalize(ch).
    pub(super) fn closure(&self, set: &CharSet) -> CharSet {
        let mut out = set.clone();
        for &c in &self.members {
            if set.contains(c) {
                for &m in &self.classes[self.class_of[&c] as usize] {
                    out.add(m);
                }
            }
        }
        out
    }

    /// The canonical values of a set's members: { Canonicalize(a) | a in set }.
    pub(super) fn fold_set(&self, set: &CharSet) -> CharSet {
        // Characters that are their own canonical value stay; the others are mapped.
        let mut out = set.subtract(&self.changing);
        for &c in &self.members {
            let k = self.canon(c);
            if k != c && set.contains(c) {
                out.add(k);
            }
        }
        out
    }

    /// The characters that are their own canonical value (AllCharacters in `v` mode with
    /// ignoreCase).
    pub(super) fn fixed_points(&self) -> CharSet {
        self.changing.complement(if self.unicode { MAX_CODE_POINT } else { MAX_CODE_UNIT })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_canonicalize_follows_the_spec_rules() {
        assert_eq!(canonicalize_legacy(u32::from(b'a')), u32::from(b'A'));
        // U+017F uppercases to 'S', which is ASCII: the character stays itself.
        assert_eq!(canonicalize_legacy(0x017F), 0x017F);
        // U+00DF uppercases to "SS", two characters: it stays itself.
        assert_eq!(canonicalize_legacy(0x00DF), 0x00DF);
        // Final sigma and sigma both uppercase to U+03A3.
        assert_eq!(canonicalize_legacy(0x03C2), 0x03A3);
        assert_eq!(canonicalize_legacy(0xD800), 0xD800);
        let f = Folding::get(false);
        let sigma: Vec<u32> = f.equivalents(0x03C3).chars().collect();
        assert_eq!(sigma, vec![0x03A3, 0x03C2, 0x03C3]);
        let s: Vec<u32> = f.equivalents(u32::from(b's')).chars().collect();
        assert_eq!(s, vec![0x53, 0x73]);
    }

    #[test]
    fn unicode_folding_is_simple_case_folding() {
        let f = Folding::get(true);
        assert_eq!(f.canon(0x212A), u32::from('k'));
        assert_eq!(f.canon(0x017F), u32::from('s'));
        assert_eq!(f.canon(0x10400), 0x10428);
        assert_eq!(f.equivalents(u32::from('k')).chars().collect::<Vec<_>>(), vec![0x4B, 0x6B, 0x212A]);
        let folded = f.fold_set(&CharSet::from_ranges(&[(0x41, 0x42)]));
        assert_eq!(folded.ranges(), &[(0x61, 0x62)]);
    }

    #[test]
    fn properties_by_name_and_alias() {
        let Some(Property::Chars(l)) = property("gc=L") else { panic!() };
        assert!(l.contains(u32::from('a')) && !l.contains(u32::from('1')));
        let Some(Property::Chars(g)) = property("Script=Greek") else { panic!() };
        assert!(g.contains(0x3B1));
        assert!(property("ASCII_Hex_Digit").is_some());
        assert!(property("AHex").is_some());
        assert!(property("ascii").is_none());
        assert!(property("General_Category=Foo").is_none());
        let Some(Property::Strings(_, s)) = property("RGI_Emoji_Flag_Sequence") else { panic!() };
        assert!(s.contains(&vec![0x1F1FA, 0x1F1F8]));
    }
}
