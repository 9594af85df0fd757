//! The disassembler: a readable text form of a bundle, for `iris dump --bytecode` and the
//! bytecode lit-tests.
//!
//! ```text
//! bundle "app.js": 2 functions, 3 strings
//!
//! function 0 "global": params 0, length 0, frame 2, ic 1, flags strict
//!   0000: load_const_string r0, "hi"
//!   0002: jmp_true @0007, r0
//!   ...
//!   handlers:
//!     [0004, 0009) -> 0011
//!   locations:
//!     0000 1:1
//! ```
//!
//! Jump targets print as absolute pcs (`@0007`), strings quoted with JavaScript escapes,
//! functions as `f<id>`, inline-cache slots as `ic<n>`, builtins and error kinds by name.

use std::fmt::Write as _;

use crate::bundle::Bundle;
use crate::inst::Inst;
use crate::operand::PrintCx;

/// The disassembly of every function of `bundle`.
pub fn disassemble(bundle: &Bundle) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "bundle {:?}: {} functions, {} strings",
        bundle.source_name(),
        bundle.function_count(),
        bundle.string_count()
    );
    for m in bundle.modules() {
        disassemble_module(bundle, m, &mut out);
    }
    for id in 0..bundle.function_count() {
        out.push('\n');
        disassemble_function(bundle, id, &mut out);
    }
    out
}

/// Appends a module record: its key, top-level function and module slot, then its requests,
/// imports (by environment slot) and exports.
fn disassemble_module(bundle: &Bundle, m: &crate::ModuleDesc, out: &mut String) {
    let q = |out: &mut String, id: u32| write_quoted(out, &bundle.string_units(id));
    let name = |out: &mut String, id: Option<u32>| match id {
        Some(id) => q(out, id),
        None => out.push('*'),
    };
    out.push_str("\nmodule ");
    q(out, m.key);
    if let Some((kind, text)) = m.value {
        let _ = writeln!(out, ": {kind:?}, {} characters", bundle.string_units(text).len());
        return;
    }
    let _ = writeln!(out, ": top-level f{}, module slot {}, tla {}", m.top_level, m.module_slot, m.has_tla);
    for (i, r) in m.requests.iter().enumerate() {
        let _ = write!(out, "  request #{i} ");
        q(out, r.specifier);
        let _ = write!(out, " at {}:{}", r.line, r.col);
        if r.defer {
            out.push_str(" defer");
        }
        for &(k, v) in &r.attributes {
            out.push(' ');
            q(out, k);
            out.push('=');
            q(out, v);
        }
        if let Some(k) = r.resolved {
            out.push_str(" -> ");
            q(out, k);
        }
        out.push('\n');
    }
    for i in &m.imports {
        let _ = write!(out, "  import slot {} from #{} ", i.slot, i.request);
        match i.name {
            crate::Imported::Name(n) => q(out, n),
            crate::Imported::Namespace => out.push('*'),
            crate::Imported::Source => out.push_str("source"),
            crate::Imported::Deferred => out.push_str("defer"),
        }
        out.push('\n');
    }
    for e in &m.exports {
        out.push_str("  export ");
        match *e {
            crate::ExportDesc::Local { name: n, slot } => {
                q(out, n);
                let _ = write!(out, " = slot {slot}");
            }
            crate::ExportDesc::Indirect { name: n, request, import } => {
                q(out, n);
                let _ = write!(out, " from #{request} ");
                name(out, import);
            }
            crate::ExportDesc::Star { request } => {
                let _ = write!(out, "* from #{request}");
            }
        }
        out.push('\n');
    }
}

/// Appends the disassembly of function `id`.
pub fn disassemble_function(bundle: &Bundle, id: u32, out: &mut String) {
    let f = bundle.function(id);
    let _ = write!(out, "function {id} ");
    write_quoted(out, &bundle.string_units(f.name));
    let _ = write!(out, ": params {}, length {}, frame {}, ic {}", f.param_count, f.length, f.frame_size, f.ic_count);
    let flags = f.flags.names();
    if !flags.is_empty() {
        let _ = write!(out, ", flags {}", flags.join("|"));
    }
    if let Some(source) = f.source {
        let _ = write!(out, ", source {}+{}", source.start, source.len);
    }
    out.push('\n');
    write_code(bundle.code(id), Some(bundle), out);
    let handlers = bundle.handlers(id);
    if !handlers.is_empty() {
        out.push_str("  handlers:\n");
        for h in handlers {
            let _ = writeln!(out, "    [{:04}, {:04}) -> {:04}", h.start, h.end, h.target);
        }
    }
    let locations = bundle.locations(id);
    if !locations.is_empty() {
        out.push_str("  locations:\n");
        for (pc, line, col) in locations {
            let _ = writeln!(out, "    {pc:04} {line}:{col}");
        }
    }
}

/// The disassembly of raw code (strings print as `s<id>`), one `  pc: inst` line per
/// instruction; undecodable bytes end the listing with an `<invalid: ...>` line.
pub fn disassemble_code(code: &[u8]) -> String {
    let mut out = String::new();
    write_code(code, None, &mut out);
    out
}

fn write_code(code: &[u8], bundle: Option<&Bundle>, out: &mut String) {
    let mut pc = 0;
    while pc < code.len() {
        match Inst::decode(code, pc) {
            Ok((inst, len)) => {
                let _ = write!(out, "  {pc:04}: ");
                inst.print(&PrintCx { bundle, pc: Some(pc) }, out);
                out.push('\n');
                pc += len;
            }
            Err(e) => {
                let _ = writeln!(out, "  {pc:04}: <invalid: {e}>");
                return;
            }
        }
    }
}

/// Appends `units` as a double-quoted JavaScript string literal.
pub fn write_quoted(out: &mut String, units: &[u16]) {
    out.push('"');
    for c in char::decode_utf16(units.iter().copied()) {
        match c {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok('\n') => out.push_str("\\n"),
            Ok('\r') => out.push_str("\\r"),
            Ok('\t') => out.push_str("\\t"),
            Ok(c) if c.is_control() => {
                let _ = if (c as u32) < 0x100 {
                    write!(out, "\\x{:02x}", c as u32)
                } else {
                    write!(out, "\\u{:04x}", c as u32)
                };
            }
            Ok(c) => out.push(c),
            Err(e) => {
                let _ = write!(out, "\\u{:04x}", e.unpaired_surrogate());
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::tests::sample_bytes;

    #[test]
    fn sample_bundle_disassembly() {
        let bundle = Bundle::from_bytes(sample_bytes()).unwrap();
        let expected = r#"bundle "app.js": 2 functions, 5 strings

function 0 "": params 0, length 0, frame 4, ic 1
  0000: load_const_string r0, "hello"
  0004: get_by_id r1, r0, "length", ic0
  0011: create_closure r2, r0, f1
  0016: call r3, r2, r0, 2
  0021: jmp @0025
  0023: catch r0
  0025: ret r0
  handlers:
    [0000, 0021) -> 0023
  locations:
    0000 1:1
    0011 2:3
    0023 3:9

function 1 "f": params 1, length 1, frame 1, ic 0, flags strict|constructor, source 10+25
  0000: load_param r0, 1
  0003: throw_error TypeError, "bad ☃ \"x\"\n"
  locations:
    0000 1:17
"#;
        assert_eq!(disassemble(&bundle), expected);
    }

    #[test]
    fn raw_code_listing_stops_at_invalid_bytes() {
        let mut code = Vec::new();
        Inst::Mov { dst: 300, src: 1 }.encode(&mut code);
        Inst::LoadConstDouble { dst: 0, value: -0.5 }.encode(&mut code);
        code.push(0xFE);
        assert_eq!(
            disassemble_code(&code),
            "  0000: mov r300, r1\n  0010: load_const_double r0, -0.5\n  \
             0020: <invalid: unknown opcode 0xfe at pc 20>\n"
        );
    }

    #[test]
    fn quoting_escapes() {
        let mut out = String::new();
        let units: Vec<u16> = "a\"\\\t\u{1}\u{e9}\u{1F600}".encode_utf16().chain([0xDC00]).collect();
        write_quoted(&mut out, &units);
        assert_eq!(out, "\"a\\\"\\\\\\t\\x01\u{e9}\u{1F600}\\udc00\"");
    }
}
