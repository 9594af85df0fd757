//! The HIR text form: a readable, deterministic dump of a module that `parse.rs` reads back.
//!
//! Values and blocks are renumbered in layout order, so a dump does not depend on how many
//! instructions a pass created and removed: the first result in the layout is `%0`, the
//! entry block `%BB0`. Literals are printed inline at their uses.
//!
//! ```text
//! module "app.js" top_level=@0
//!
//! scope $0 in @0 parent=none
//!   $0.0 let "x"
//!
//! function @0 ""() kind=toplevel sloppy parent=none length=0
//! %BB0:
//!   %0 = create_scope $0 undefined : environment
//!   %1 = load_frame $0.0:"x" %0 : any|empty
//!   %2 = binary_op "+" %1, 1 : string|number|bigint
//!   cond_branch %2, %BB1, %BB2
//! %BB1:
//!   %3 = phi [%2, %BB0] : string|number|bigint
//!   return %3
//! ```
//!
//! Syntax of an instruction line: `[%N = ] mnemonic [imm] [operands] [: type] [at L:C]`,
//! where operands are values (`%N` or a literal) followed by targets (`%BBN`), separated by
//! commas; a Phi lists `[value, %BBpred]` pairs. The immediate comes right after the mnemonic
//! in a fixed syntax for its kind (`ImmKind`):
//!
//! | kind | syntax | example |
//! |---|---|---|
//! | Name | a string | `try_load_global "print"` |
//! | Index, Flags, Builtin | `#N` | `load_param #1` |
//! | Scope | `$S` | `create_scope $2 %0` |
//! | Var | `$S.I:"name"` (name optional when parsing) | `load_frame $2.0:"x" %1` |
//! | Func | `@F:"name"` (name optional when parsing) | `create_closure @3:"f" %1` |
//! | BinOp, UnOp | the operator as a string | `binary_op "===" %1, %2` |
//! | RegExp | pattern and flags strings | `create_regexp "a+" "gi"` |
//! | Error | kind and message | `throw_error TypeError "not a function"` |
//!
//! Literals: `undefined`, `null`, `empty`, `true`, `false`, numbers as JavaScript prints them
//! (plus `-0`), and strings in double quotes with JavaScript escapes. Strings are UTF-16; lone
//! surrogates print as `\uD800`.

use std::fmt::Write;

use hashbrown::HashMap;

use crate::function::{Function, Literal, ValueDef};
use crate::inst::{Imm, Opcode};
use crate::module::{Atom, ExportEntry, FuncId, ImportName, Module, ModuleRecord, VarKind};
use crate::{Block, Inst, Value};

/// What a dump includes besides the instructions.
#[derive(Clone, Copy, Debug, Default)]
pub struct DumpOptions {
    /// Print each instruction's source location as a trailing `at L:C` (when known).
    pub locations: bool,
}

/// The text form of a whole module (scopes, then functions in id order).
pub fn dump_module(module: &Module) -> String {
    dump_module_with(module, &DumpOptions::default())
}

/// The text form of a whole module, with options.
pub fn dump_module_with(module: &Module, options: &DumpOptions) -> String {
    let mut out = String::new();
    let _ = write!(out, "module {}", quote_str(&module.source_name));
    if let Some(top) = module.top_level {
        let _ = write!(out, " top_level={top_ref}", top_ref = func_ref(top));
    }
    out.push('\n');
    if let Some(record) = &module.module_record {
        dump_module_record(module, record, &mut out);
    }
    for (id, scope) in module.scopes.iter() {
        out.push('\n');
        let parent = scope.parent.map_or("none".to_string(), |p| format!("${}", p.0));
        let _ = writeln!(out, "scope ${} in {} parent={parent}", id.0, func_ref(scope.function));
        for (i, var) in scope.vars.iter().enumerate() {
            let _ = writeln!(out, "  ${}.{i} {} {}", id.0, var_kind_str(var.kind), quote_atom(module, var.name));
        }
    }
    for id in module.functions.keys() {
        out.push('\n');
        out.push_str(&dump_function_with(module, id, options));
    }
    out
}

/// The module record of module code:
/// ```text
/// module_record scope=$0 module_slot=0 tla=false
///   request #0 "./b.js" loc=1:1 with "type"="json"
///   import $0.1 from #0 "x"            (a namespace: `from #0 *`)
///   export "y" = $0.2                  (a local binding)
///   export "z" from #0 "x"             (indirect; `from #0 *` for `export * as z from`)
///   export * from #1
/// ```
fn dump_module_record(module: &Module, record: &ModuleRecord, out: &mut String) {
    let scope = record.scope.0;
    let _ = writeln!(out, "\nmodule_record scope=${scope} module_slot={} tla={}", record.module_slot, record.has_tla);
    let name = |n: ImportName| match n {
        ImportName::Name(a) => quote_atom(module, a),
        ImportName::Namespace => "*".to_string(),
        ImportName::Source => "source".to_string(),
        ImportName::Deferred => "defer".to_string(),
    };
    for (i, r) in record.requests.iter().enumerate() {
        let _ = write!(out, "  request #{i} {} loc={}:{}", quote_atom(module, r.specifier), r.loc.line, r.loc.col);
        if r.defer {
            out.push_str(" defer");
        }
        if !r.attributes.is_empty() {
            let attrs: Vec<String> = r
                .attributes
                .iter()
                .map(|&(k, v)| format!("{}={}", quote_atom(module, k), quote_atom(module, v)))
                .collect();
            let _ = write!(out, " with {}", attrs.join(" "));
        }
        out.push('\n');
    }
    for e in &record.imports {
        let _ = writeln!(out, "  import ${scope}.{} from #{} {}", e.slot, e.request, name(e.name));
    }
    for e in &record.exports {
        let _ = match *e {
            ExportEntry::Local { name: n, slot } => {
                writeln!(out, "  export {} = ${scope}.{slot}", quote_atom(module, n))
            }
            ExportEntry::Indirect { name: n, request, import } => {
                writeln!(out, "  export {} from #{request} {}", quote_atom(module, n), name(import))
            }
            ExportEntry::Star { request } => writeln!(out, "  export * from #{request}"),
        };
    }
}

/// The text form of one function.
pub fn dump_function(module: &Module, id: FuncId) -> String {
    dump_function_with(module, id, &DumpOptions::default())
}

/// The text form of one function, with options.
pub fn dump_function_with(module: &Module, id: FuncId, options: &DumpOptions) -> String {
    let func = &module.functions[id];
    let names = Namer::new(func);
    let mut out = String::new();
    let params: Vec<String> = func.params.iter().map(|&p| quote_atom(module, p)).collect();
    let _ = write!(
        out,
        "function {} {}({}) kind={} {} parent={} length={}",
        func_ref(id),
        quote_atom(module, func.name),
        params.join(", "),
        func.kind.as_str(),
        if func.strict { "strict" } else { "sloppy" },
        func.parent_scope.map_or("none".to_string(), |s| format!("${}", s.0)),
        func.length,
    );
    if func.loc.line != 0 || func.loc.col != 0 {
        let _ = write!(out, " loc={}:{}", func.loc.line, func.loc.col);
    }
    if let Some(src) = func.source {
        let _ = write!(out, " source={}", quote_str(module.source_slice(src)));
    }
    if func.run_once {
        out.push_str(" once");
    }
    if let Some(scope) = func.lazy {
        let _ = write!(out, " lazy={}", quote_atom(module, scope));
    }
    out.push('\n');
    for &b in &func.layout {
        let _ = writeln!(out, "{}:", names.block(b));
        // Dangling handles only occur in broken IR being reported by the verifier.
        let insts = func.blocks.get(b).map_or(&[][..], |d| d.insts.as_slice());
        for &inst in insts {
            out.push_str("  ");
            out.push_str(&names.inst_text(module, func, inst));
            if options.locations {
                let loc = func.insts.get(inst).map(|d| d.loc).unwrap_or_default();
                if loc.line != 0 || loc.col != 0 {
                    let _ = write!(out, " at {}:{}", loc.line, loc.col);
                }
            }
            out.push('\n');
        }
    }
    out
}

/// Layout-order names of a function's values and blocks, used by the dump and by error
/// messages that quote instructions.
pub struct Namer {
    values: HashMap<Value, u32>,
    blocks: HashMap<Block, u32>,
}

impl Namer {
    /// Numbers the results and blocks of `func` in layout order.
    pub fn new(func: &Function) -> Namer {
        let mut values = HashMap::new();
        let mut blocks = HashMap::new();
        for (bi, &b) in func.layout.iter().enumerate() {
            blocks.insert(b, bi as u32);
            let Some(block) = func.blocks.get(b) else { continue };
            for &i in &block.insts {
                if let Some(v) = func.insts.get(i).and_then(|d| d.result) {
                    let n = values.len() as u32;
                    values.insert(v, n);
                }
            }
        }
        Namer { values, blocks }
    }

    /// `%BBN` for a block in the layout; `%BB?N` (the raw index) for one that is not.
    pub fn block(&self, b: Block) -> String {
        match self.blocks.get(&b) {
            Some(n) => format!("%BB{n}"),
            None => format!("%BB?{}", b.0),
        }
    }

    /// The text of an operand: a literal inline, `%N` for a result in the layout, `%?N` (the
    /// raw index) for the result of an instruction that is not in the layout.
    pub fn value(&self, module: &Module, func: &Function, v: Value) -> String {
        match func.values.get(v).map(|d| d.def) {
            Some(ValueDef::Literal(lit)) => literal_text(module, lit),
            Some(ValueDef::Inst(_)) => match self.values.get(&v) {
                Some(n) => format!("%{n}"),
                None => format!("%?{}", v.0),
            },
            None => format!("%!{}", v.0),
        }
    }

    /// The text of one instruction, without indentation or location.
    pub fn inst_text(&self, module: &Module, func: &Function, inst: Inst) -> String {
        let Some(data) = func.insts.get(inst) else { return format!("<missing {inst:?}>") };
        let mut out = String::new();
        if let Some(r) = data.result {
            let _ = write!(out, "{} = ", self.value(module, func, r));
        }
        out.push_str(data.opcode.mnemonic());
        let imm = imm_text(module, &data.imm);
        if !imm.is_empty() {
            out.push(' ');
            out.push_str(&imm);
        }
        let mut ops: Vec<String> = Vec::new();
        if data.opcode == Opcode::Phi {
            let n = data.args.len().max(data.targets.len());
            for k in 0..n {
                let v = data.args.get(k).map_or("?".to_string(), |&a| self.value(module, func, a));
                let b = data.targets.get(k).map_or("?".to_string(), |&t| self.block(t));
                ops.push(format!("[{v}, {b}]"));
            }
        } else {
            ops.extend(data.args.iter().map(|&a| self.value(module, func, a)));
            ops.extend(data.targets.iter().map(|&t| self.block(t)));
        }
        if !ops.is_empty() {
            out.push(' ');
            out.push_str(&ops.join(", "));
        }
        if let Some(r) = data.result {
            if let Some(d) = func.values.get(r) {
                let _ = write!(out, " : {}", d.ty);
            }
        }
        out
    }
}

fn func_ref(id: FuncId) -> String {
    format!("@{}", id.0)
}

/// The text-form name of a variable kind.
pub fn var_kind_str(kind: VarKind) -> &'static str {
    match kind {
        VarKind::Var => "var",
        VarKind::Let => "let",
        VarKind::Const => "const",
        VarKind::Internal => "internal",
        VarKind::Import => "import",
    }
}

/// The variable kind named `text`.
pub fn parse_var_kind(text: &str) -> Option<VarKind> {
    [VarKind::Var, VarKind::Let, VarKind::Const, VarKind::Internal, VarKind::Import]
        .into_iter()
        .find(|&k| var_kind_str(k) == text)
}

fn imm_text(module: &Module, imm: &Imm) -> String {
    match *imm {
        Imm::None => String::new(),
        Imm::Name(a) => quote_atom(module, a),
        Imm::Index(n) | Imm::Flags(n) => format!("#{n}"),
        Imm::Builtin(n) => format!("#{n}"),
        Imm::Scope(s) => format!("${}", s.0),
        Imm::Var(v) => {
            let name = module.scopes.get(v.scope).and_then(|s| s.vars.get(v.index as usize)).map(|d| d.name);
            match name {
                Some(n) => format!("${}.{}:{}", v.scope.0, v.index, quote_atom(module, n)),
                None => format!("${}.{}", v.scope.0, v.index),
            }
        }
        Imm::Func(f) => match module.functions.get(f) {
            Some(func) => format!("@{}:{}", f.0, quote_atom(module, func.name)),
            None => format!("@{}", f.0),
        },
        Imm::BinOp(op) => format!("\"{}\"", op.as_str()),
        Imm::UnOp(op) => format!("\"{}\"", op.as_str()),
        Imm::RegExp(p, fl) => format!("{} {}", quote_atom(module, p), quote_atom(module, fl)),
        Imm::Error(kind, msg) => format!("{} {}", kind.name(), quote_atom(module, msg)),
    }
}

/// The inline text of a literal.
pub fn literal_text(module: &Module, lit: Literal) -> String {
    match lit {
        Literal::Undefined => "undefined".into(),
        Literal::Null => "null".into(),
        Literal::Empty => "empty".into(),
        Literal::Bool(b) => b.to_string(),
        Literal::Number(n) => number_text(n),
        Literal::String(a) => quote_atom(module, a),
    }
}

/// A number as the text form writes it: JavaScript's `Number::toString`, except that negative
/// zero is `-0` so the text round-trips.
pub fn number_text(n: f64) -> String {
    if n == 0.0 && n.is_sign_negative() {
        "-0".into()
    } else {
        ecma::conv::number_to_string::number_to_string(n)
    }
}

/// An atom in double quotes with JavaScript escapes.
pub fn quote_atom(module: &Module, atom: Atom) -> String {
    match module.atoms.get_index(atom.0 as usize) {
        Some(units) => quote_utf16(units),
        None => format!("<bad {atom:?}>"),
    }
}

/// A Rust string in double quotes with JavaScript escapes.
pub fn quote_str(s: &str) -> String {
    let units: Vec<u16> = s.encode_utf16().collect();
    quote_utf16(&units)
}

/// UTF-16 code units in double quotes with JavaScript escapes: `\"`, `\\`, `\n`, `\r`, `\t`,
/// `\uXXXX` for other control characters, line separators and lone surrogates.
pub fn quote_utf16(units: &[u16]) -> String {
    let mut out = String::with_capacity(units.len() + 2);
    out.push('"');
    for item in char::decode_utf16(units.iter().copied()) {
        match item {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok('\n') => out.push_str("\\n"),
            Ok('\r') => out.push_str("\\r"),
            Ok('\t') => out.push_str("\\t"),
            Ok(c) if c.is_control() || c == '\u{2028}' || c == '\u{2029}' || c == '\u{feff}' => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    let _ = write!(out, "\\u{:04X}", u);
                }
            }
            Ok(c) => out.push(c),
            Err(e) => {
                let _ = write!(out, "\\u{:04X}", e.unpaired_surrogate());
            }
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;
    use crate::function::FunctionKind;
    use crate::inst::BinOp;

    #[test]
    fn number_text_matches_javascript() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (2f64.powi(53), "9007199254740992"),
            (123.456, "123.456"),
            (100.0, "100"),
        ];
        for &(n, text) in cases {
            assert_eq!(number_text(n), text, "{n:?}");
        }
    }

    #[test]
    fn strings_are_escaped() {
        let units: Vec<u16> = "a\"b\\c\nd\u{1}é😀".encode_utf16().chain([0xD800]).collect();
        assert_eq!(quote_utf16(&units), "\"a\\\"b\\\\c\\nd\\u0001é😀\\uD800\"");
    }

    #[test]
    fn dumps_values_in_layout_order() {
        let mut m = Module::new("t.js");
        let name = m.atom("f");
        let x = m.atom("x");
        let mut f = Function::new(name, FunctionKind::Normal, true);
        f.params.push(x);
        f.length = 1;
        let entry = f.add_block();
        let exit = f.add_block();
        let mut b = Builder::new(&mut f, entry);
        // Create the later block's instruction first, so that raw indices differ from layout order.
        b.switch_to(exit);
        let p = b.value(Opcode::LoadParam, vec![], Imm::Index(1));
        let one = b.number(1.0);
        let sum = b.binary(BinOp::Add, p, one);
        b.ret(sum);
        b.switch_to(entry);
        let q = b.value(Opcode::LoadParam, vec![], Imm::Index(0));
        let _ = q;
        b.branch(exit);
        let id = m.add_function(f);
        assert_eq!(
            dump_function(&m, id),
            "function @0 \"f\"(\"x\") kind=function strict parent=none length=1\n\
             %BB0:\n  %0 = load_param #0 : any\n  branch %BB1\n\
             %BB1:\n  %1 = load_param #1 : any\n  %2 = binary_op \"+\" %1, 1 : string|number|bigint\n  return %2\n"
        );
    }
}
