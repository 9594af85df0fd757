//! Snapshot of the opcode and builtin tables, which are part of the bundle format.
//!
//! Any change to a row (number, mnemonic, operands, flags) or to the operand sizes shows up
//! as a diff against `tests/opcode_table.txt`. Such a change makes old bundles unreadable
//! in the new meaning: bump `BUNDLE_VERSION` in `src/bundle/format.rs`, then bless with
//! `IRIS_BLESS=1 cargo test -p bytecode --test opcode_table`.

use std::fmt::Write as _;

use bytecode::{BuiltinId, OpFlags, Opcode, BUNDLE_VERSION};

fn flag_names(flags: OpFlags) -> String {
    let names = [
        (OpFlags::THROWS, "THROWS"),
        (OpFlags::CALLS_JS, "CALLS_JS"),
        (OpFlags::TERMINATOR, "TERMINATOR"),
        (OpFlags::BRANCH, "BRANCH"),
        (OpFlags::ALLOCATES, "ALLOCATES"),
        (OpFlags::PREFIX, "PREFIX"),
        (OpFlags::WRITES, "WRITES"),
    ];
    let known = names.iter().fold(0, |acc, (f, _)| acc | f.0);
    assert_eq!(flags.0 & !known, 0, "a new OpFlags bit needs a name here");
    names.iter().filter(|(f, _)| flags.contains(*f)).map(|(_, n)| *n).collect::<Vec<_>>().join(" | ")
}

fn render() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Iris bytecode tables (bundle version {BUNDLE_VERSION}).");
    let _ = writeln!(
        out,
        "# number mnemonic Name (operand: Kind(Role), ...) [flags] narrow/wide bytes (wide incl. prefix)"
    );
    let _ = writeln!(out, "opcodes:");
    for &op in Opcode::ALL {
        let operands: Vec<String> = op
            .operand_names()
            .iter()
            .zip(op.operand_kinds())
            .zip(op.operand_roles())
            .map(|((name, kind), role)| format!("{name}: {}({role:?})", kind.name()))
            .collect();
        let _ = writeln!(
            out,
            "  {:3} {} {} ({}) [{}] {}/{}",
            op as u8,
            op.mnemonic(),
            op.name(),
            operands.join(", "),
            flag_names(op.flags()),
            op.encoded_len(false),
            if op.has_variable_operands() { (op.encoded_len(true) + 1).to_string() } else { "-".to_string() },
        );
    }
    let _ = writeln!(out, "builtins:");
    for &b in BuiltinId::ALL {
        let _ = writeln!(out, "  {:3} {} {:?}", b as u8, b.name(), b);
    }
    out
}

#[test]
fn opcode_table_snapshot() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/opcode_table.txt");
    let actual = render();
    if std::env::var_os("IRIS_BLESS").is_some() {
        std::fs::write(path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected != actual {
        let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
        let diff: Vec<String> = (0..e.len().max(a.len()))
            .filter(|&i| e.get(i) != a.get(i))
            .take(10)
            .map(|i| format!("- {}\n+ {}", e.get(i).unwrap_or(&""), a.get(i).unwrap_or(&"")))
            .collect();
        panic!(
            "the opcode/builtin tables changed (first differing lines below; {} vs {} lines).\n\
             {}\n\
             This changes the bundle format: bump BUNDLE_VERSION in \
             bytecode/src/bundle/format.rs, then bless with \
             `IRIS_BLESS=1 cargo test -p bytecode --test opcode_table`.",
            expected.lines().count(),
            actual.lines().count(),
            diff.join("\n")
        );
    }
}
