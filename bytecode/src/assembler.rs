//! The assembler: turns a stream of instructions, labels and source locations into the code
//! of one function.
//!
//! Branches are emitted against labels; `finish` picks the smallest encoding of every
//! branch (relaxation). Every branch starts narrow; a pass computes the offsets from the
//! current sizes and widens the branches whose offset no longer fits, and passes repeat
//! until nothing changes. Sizes only grow, and a distance between two points only grows
//! when sizes grow, so a widened branch never becomes narrow again and the loop ends after
//! at most one pass per branch plus one.
//!
//! ```text
//!  backend ──emit/emit_branch/bind/set_loc──▶ Assembler ──finish──▶ Assembled { code, label_offsets, locations }
//! ```

use std::fmt;

use crate::inst::{Inst, Opcode};

/// A position in the code, bound with [`Assembler::bind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(u32);

impl Label {
    /// The label's index in [`Assembled::label_offsets`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Why assembly failed (always a bug in the code generator, never in user input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "assembler error: {}", self.message)
    }
}

impl std::error::Error for AsmError {}

/// The assembled code of one function.
#[derive(Clone, Debug, PartialEq)]
pub struct Assembled {
    /// The encoded instructions.
    pub code: Vec<u8>,
    /// The pc of every label, by [`Label::index`]; `u32::MAX` for a label never bound.
    pub label_offsets: Vec<u32>,
    /// `(pc, line, col)`, sorted by pc: the location of the instruction at `pc` and the
    /// following ones up to the next entry.
    pub locations: Vec<(u32, u32, u32)>,
}

#[derive(Clone, Copy)]
struct Item {
    inst: Inst,
    /// The branch target, for instructions with an offset.
    target: Option<Label>,
}

/// Builds the code of one function.
#[derive(Default)]
pub struct Assembler {
    items: Vec<Item>,
    /// The item index each label is bound to.
    labels: Vec<Option<u32>>,
    /// `(item index, line, col)`, item indices non-decreasing.
    locations: Vec<(u32, u32, u32)>,
    /// The location for the next instruction, if it changed since the last one recorded.
    current_loc: Option<(u32, u32)>,
    last_recorded: Option<(u32, u32)>,
    errors: Vec<String>,
}

impl Assembler {
    /// An empty assembler.
    pub fn new() -> Assembler {
        Assembler::default()
    }

    /// A new, unbound label.
    pub fn new_label(&mut self) -> Label {
        self.labels.push(None);
        Label(self.labels.len() as u32 - 1)
    }

    /// Binds `label` to the current position (the next instruction emitted, or the end).
    pub fn bind(&mut self, label: Label) {
        match self.labels.get_mut(label.index()) {
            Some(slot @ None) => *slot = Some(self.items.len() as u32),
            Some(Some(_)) => self.errors.push(format!("label {} bound twice", label.0)),
            None => self.errors.push(format!("label {} does not exist", label.0)),
        }
    }

    /// Records `(line, col)` as the source location of the following instructions.
    pub fn set_loc(&mut self, line: u32, col: u32) {
        self.current_loc = Some((line, col));
    }

    /// The number of instructions emitted so far.
    pub fn inst_count(&self) -> usize {
        self.items.len()
    }

    /// Emits a non-branch instruction.
    pub fn emit(&mut self, inst: Inst) {
        let op = inst.opcode();
        if op == Opcode::Wide {
            self.errors.push("the wide prefix is not an instruction".to_string());
        } else if op.has_offset() {
            self.errors.push(format!("`{}` emitted without a target label", op.mnemonic()));
        }
        self.push(inst, None);
    }

    /// Emits a branch (`jmp`, `jmp_true`, ..., `save_generator`) to `target`; the offset
    /// in `inst` is ignored.
    pub fn emit_branch(&mut self, inst: Inst, target: Label) {
        if !inst.opcode().has_offset() {
            self.errors.push(format!("`{}` is not a branch", inst.opcode().mnemonic()));
        }
        if target.index() >= self.labels.len() {
            self.errors.push(format!("label {} does not exist", target.0));
        }
        self.push(inst.with_branch_offset(0), Some(target));
    }

    fn push(&mut self, inst: Inst, target: Option<Label>) {
        if let Some(loc) = self.current_loc.take() {
            if self.last_recorded != Some(loc) {
                let index = self.items.len() as u32;
                self.locations.push((index, loc.0, loc.1));
                self.last_recorded = Some(loc);
            }
        }
        self.items.push(Item { inst, target });
    }

    /// Resolves the labels, picks narrow or wide branches and encodes the code.
    pub fn finish(self) -> Result<Assembled, AsmError> {
        if let Some(message) = self.errors.into_iter().next() {
            return Err(AsmError { message });
        }
        let items = self.items;
        let mut sizes: Vec<usize> = items.iter().map(|item| item.inst.encoded_len()).collect();
        // Item index -> pc; one extra entry for the end.
        let mut pcs = vec![0usize; items.len() + 1];
        let label_item = |label: Label| -> Result<usize, AsmError> {
            match self.labels[label.index()] {
                Some(index) => Ok(index as usize),
                None => Err(AsmError { message: format!("label {} used but never bound", label.0) }),
            }
        };
        let offset = |pcs: &[usize], at: usize, target: usize| -> Result<i32, AsmError> {
            let off = pcs[target] as i64 - pcs[at] as i64;
            i32::try_from(off).map_err(|_| AsmError { message: "jump offset exceeds 32 bits".to_string() })
        };
        // The fixed point is reached after at most one pass per branch plus one; the cap
        // only guards against a bug in the monotonicity argument.
        let branch_count = items.iter().filter(|item| item.target.is_some()).count();
        let mut converged = false;
        for _ in 0..=branch_count + 1 {
            for (i, size) in sizes.iter().enumerate() {
                pcs[i + 1] = pcs[i] + size;
            }
            let mut changed = false;
            for (i, item) in items.iter().enumerate() {
                let Some(target) = item.target else { continue };
                let off = offset(&pcs, i, label_item(target)?)?;
                let len = item.inst.with_branch_offset(off).encoded_len();
                if len > sizes[i] {
                    sizes[i] = len;
                    changed = true;
                }
            }
            if !changed {
                converged = true;
                break;
            }
        }
        if !converged {
            return Err(AsmError { message: "branch relaxation did not converge".to_string() });
        }
        if u32::try_from(pcs[items.len()]).is_err() {
            return Err(AsmError { message: "function code exceeds 4 GiB".to_string() });
        }

        let mut code = Vec::with_capacity(pcs[items.len()]);
        for (i, item) in items.iter().enumerate() {
            let inst = match item.target {
                Some(target) => item.inst.with_branch_offset(offset(&pcs, i, label_item(target)?)?),
                None => item.inst,
            };
            inst.encode(&mut code);
            // Sizes only grew towards each branch's natural size at the final offsets (see
            // the module doc), so the encoding matches the planned size exactly.
            if code.len() != pcs[i + 1] {
                return Err(AsmError { message: format!("instruction {i} changed size after relaxation") });
            }
        }
        let label_offsets =
            self.labels.iter().map(|slot| slot.map_or(u32::MAX, |index| pcs[index as usize] as u32)).collect();
        let locations =
            self.locations.iter().map(|&(index, line, col)| (pcs[index as usize] as u32, line, col)).collect();
        Ok(Assembled { code, label_offsets, locations })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(code: &[u8]) -> Vec<(usize, Inst)> {
        let mut pc = 0;
        let mut out = Vec::new();
        while pc < code.len() {
            let (inst, len) = Inst::decode(code, pc).unwrap();
            out.push((pc, inst));
            pc += len;
        }
        out
    }

    #[test]
    fn forward_and_backward_narrow_jumps() {
        let mut asm = Assembler::new();
        let top = asm.new_label();
        let end = asm.new_label();
        asm.bind(top);
        asm.emit(Inst::LoadConstTrue { dst: 0 });
        asm.emit_branch(Inst::JmpFalse { off: 99, cond: 0 }, end);
        asm.emit_branch(Inst::Jmp { off: 0 }, top);
        asm.bind(end);
        asm.emit(Inst::Ret { value: 0 });
        let out = asm.finish().unwrap();
        assert_eq!(
            decode_all(&out.code),
            vec![
                (0, Inst::LoadConstTrue { dst: 0 }),
                (2, Inst::JmpFalse { off: 5, cond: 0 }),
                (5, Inst::Jmp { off: -5 }),
                (7, Inst::Ret { value: 0 }),
            ]
        );
        assert_eq!(out.label_offsets, vec![0, 7]);
    }

    #[test]
    fn long_jumps_are_widened() {
        let mut asm = Assembler::new();
        let top = asm.new_label();
        let end = asm.new_label();
        asm.bind(top);
        asm.emit_branch(Inst::JmpTrue { off: 0, cond: 1 }, end);
        // 100 instructions of 4 bytes: 400 bytes, beyond an i8 offset.
        for i in 0..100 {
            asm.emit(Inst::Add { dst: 1, lhs: 1, rhs: (i % 3) as u32 });
        }
        asm.emit_branch(Inst::Jmp { off: 0 }, top);
        asm.bind(end);
        asm.emit(Inst::Ret { value: 1 });
        let out = asm.finish().unwrap();
        let insts = decode_all(&out.code);
        // jmp_true wide: prefix + opcode + 4 + 4 = 10 bytes.
        assert_eq!(insts[0], (0, Inst::JmpTrue { off: 10 + 400 + 6, cond: 1 }));
        assert_eq!(insts[101], (410, Inst::Jmp { off: -410 }));
        assert_eq!(insts[102].0, 416);
        assert_eq!(out.code[0], Opcode::Wide as u8);
    }

    #[test]
    fn relaxation_cascades() {
        // A forward jump that just fits narrow stops fitting once a jump it spans widens.
        let mut asm = Assembler::new();
        let a = asm.new_label();
        let b = asm.new_label();
        asm.emit_branch(Inst::Jmp { off: 0 }, a); // spans the inner jump
        asm.emit_branch(Inst::Jmp { off: 0 }, b); // inner, must widen
        for _ in 0..30 {
            asm.emit(Inst::Mov { dst: 0, src: 1 }); // 3 bytes each: 90 bytes
        }
        asm.bind(a);
        for _ in 0..12 {
            asm.emit(Inst::Mov { dst: 0, src: 1 }); // 36 bytes
        }
        asm.bind(b);
        asm.emit(Inst::Ret { value: 0 });
        let out = asm.finish().unwrap();
        let insts = decode_all(&out.code);
        // Narrow, the outer offset would be 2 + 2 + 90 = 94; the inner 2 + 90 + 36 = 128
        // does not fit, widens to 6 bytes, and the outer becomes 2 + 6 + 90 = 98.
        assert_eq!(insts[0], (0, Inst::Jmp { off: 98 }));
        assert_eq!(insts[1], (2, Inst::Jmp { off: 6 + 90 + 36 }));
        for (pc, inst) in &insts {
            if let Some(off) = inst.branch_offset() {
                let target = (*pc as i64 + off as i64) as usize;
                assert!(insts.iter().any(|(p, _)| *p == target));
            }
        }
    }

    #[test]
    fn wide_operands_and_locations() {
        let mut asm = Assembler::new();
        asm.set_loc(1, 1);
        asm.emit(Inst::Mov { dst: 300, src: 0 });
        asm.set_loc(1, 1);
        asm.emit(Inst::Mov { dst: 1, src: 0 });
        asm.set_loc(2, 5);
        asm.set_loc(3, 7);
        asm.emit(Inst::Ret { value: 1 });
        let out = asm.finish().unwrap();
        assert_eq!(out.locations, vec![(0, 1, 1), (13, 3, 7)]);
        assert_eq!(out.code.len(), 10 + 3 + 2);
    }

    #[test]
    fn misuse_is_an_error_not_a_panic() {
        let mut asm = Assembler::new();
        let l = asm.new_label();
        asm.emit_branch(Inst::Jmp { off: 0 }, l);
        assert!(asm.finish().unwrap_err().message.contains("never bound"));

        let mut asm = Assembler::new();
        let l = asm.new_label();
        asm.bind(l);
        asm.bind(l);
        assert!(asm.finish().is_err());

        let mut asm = Assembler::new();
        asm.emit(Inst::Jmp { off: 3 });
        assert!(asm.finish().is_err());

        let mut asm = Assembler::new();
        let l = asm.new_label();
        asm.bind(l);
        asm.emit_branch(Inst::Mov { dst: 0, src: 0 }, l);
        assert!(asm.finish().is_err());

        let mut asm = Assembler::new();
        asm.emit_branch(Inst::Jmp { off: 0 }, Label(7));
        assert!(asm.finish().is_err());
    }

    #[test]
    fn unbound_unused_label_reads_as_max() {
        let mut asm = Assembler::new();
        let unused = asm.new_label();
        asm.emit(Inst::Ret { value: 0 });
        let out = asm.finish().unwrap();
        assert_eq!(out.label_offsets[unused.index()], u32::MAX);
    }
}
