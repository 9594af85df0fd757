//! The bundle verifier: everything the VM may rely on without checking again.
//!
//! Run by [`Bundle::from_bytes`] after the header and section table are checked. It
//! guarantees:
//! - every string entry lies inside its character section (two-byte strings at even
//!   offsets);
//! - every function entry is sane: the name string exists, the source text range lies in
//!   the source text, the code and location runs lie inside their sections, and the info
//!   record decodes, with known flags, a frame of at most `MAX_FRAME_SIZE` registers, no
//!   more inline caches than code bytes, and handlers inside the section (and for a `LAZY` function a scope string in range and a
//!   source text range);
//! - every function's code decodes to whole instructions and its last instruction is a
//!   terminator, so execution can never run off the end;
//! - every operand is valid for its role: registers (and `first .. first + argc` argument
//!   ranges) inside the frame, string and function ids in range, inline-cache slots below
//!   `ic_count`, builtin ids and error kinds known;
//! - every jump target (including `save_generator`'s resume point) starts an instruction of
//!   the same function;
//! - `create_generator` names a generator body (`GENERATOR_INNER`) and `create_closure`
//!   never does;
//! - handler ranges are non-empty, start and end on instruction boundaries, and their
//!   targets start with `catch`;
//! - location runs decode whole, sorted by pc, at instruction starts;
//! - the source text section's block table is in order and inside the section (a block
//!   that does not inflate is found only when a function's text is asked for, and then
//!   gives no text).
//!
//! Environment slots are not checked here: environment sizes are only known at run time.

use crate::bundle::format::*;
use crate::bundle::{Bundle, BundleError, FunctionFlags};
use crate::inst::{Inst, Opcode};
use crate::operand::VerifyCx;

/// Verifies everything after the header (see the module doc).
pub(crate) fn verify_bundle(bundle: &Bundle) -> Result<(), BundleError> {
    verify_strings(bundle)?;
    for id in 0..bundle.function_count() {
        verify_function_entry(bundle, id)?;
    }
    for id in 0..bundle.function_count() {
        verify_code(bundle, id)?;
    }
    Ok(())
}

fn verify_strings(bundle: &Bundle) -> Result<(), BundleError> {
    let one = bundle.section(Section::OneByteChars).len() as u64;
    let two = bundle.section(Section::TwoByteChars).len() as u64;
    let table = bundle.section_offset(Section::StringTable);
    for id in 0..bundle.string_count() {
        let (offset, len, kind) = bundle.string_entry(id);
        let (offset, len) = (offset as u64, len as u64);
        let ok = match kind {
            STRING_ONE_BYTE => offset + len <= one,
            STRING_TWO_BYTE => offset % 2 == 0 && offset + 2 * len <= two,
            _ => false,
        };
        if !ok {
            return Err(BundleError::at(
                table + id as usize * STRING_ENTRY_SIZE,
                format!("string {id}: bad entry (offset {offset}, length {len}, kind {kind})"),
            ));
        }
    }
    Ok(())
}

fn verify_function_entry(bundle: &Bundle, id: u32) -> Result<(), BundleError> {
    let err = |message: String| {
        Err(BundleError {
            offset: Some(bundle.section_offset(Section::Functions) + id as usize * FUNCTION_ENTRY_SIZE),
            ..BundleError::in_function(id, message)
        })
    };
    let word = |index| bundle.function_word(id, index);
    let strings = bundle.string_count();
    if word(FN_NAME) >= strings {
        return err(format!("name string {} out of range", word(FN_NAME)));
    }
    let run_ok = |start: u32, len: u32, total: usize| u64::from(start) + u64::from(len) <= total as u64;
    if word(FN_CODE_LEN) == 0 {
        return err("no code (reserved but never defined?)".to_string());
    }
    if !run_ok(word(FN_CODE_OFFSET), word(FN_CODE_LEN), bundle.section(Section::Code).len()) {
        return err("code outside the code section".to_string());
    }
    if !run_ok(word(FN_LOCATION_OFFSET), word(FN_LOCATION_LEN), bundle.section(Section::Locations).len()) {
        return err("locations outside the location section".to_string());
    }
    let Some((head, mut handlers)) = bundle.info_head(id) else {
        return err("function info record truncated or malformed".to_string());
    };
    if head.flags & !FunctionFlags::ALL.0 != 0 {
        return err(format!("unknown function flags {:#x}", head.flags));
    }
    if head.frame_size > MAX_FRAME_SIZE {
        return err(format!("frame of {} registers exceeds {MAX_FRAME_SIZE}", head.frame_size));
    }
    // The VM allocates a function's caches by this count: every cache is named by an operand
    // of an instruction longer than a byte, so more caches than code bytes is never right.
    if head.ic_count > word(FN_CODE_LEN) {
        return err(format!("{} inline caches for {} bytes of code", head.ic_count, word(FN_CODE_LEN)));
    }
    if head.source.is_some_and(|r| u64::from(r.start) + u64::from(r.len) > bundle.source_text().len() as u64) {
        return err("source text range outside the source text".to_string());
    }
    // Each handler takes at least three bytes: bound the count before reading them.
    if head.handler_count as usize > bundle.section(Section::FunctionInfo).len() / 3 {
        return err(format!("{} handlers cannot fit in the function info section", head.handler_count));
    }
    for _ in 0..3 * head.handler_count {
        if handlers.u32().is_none() {
            return err("function info record truncated or malformed".to_string());
        }
    }
    if FunctionFlags(head.flags).contains(FunctionFlags::LAZY) {
        match handlers.u32() {
            None => return err("function info record truncated or malformed".to_string()),
            Some(s) if s >= strings => return err(format!("lazy scope string {s} out of range")),
            Some(_) if head.source.is_none() => return err("a lazy function without source text".to_string()),
            Some(_) => {}
        }
    }
    Ok(())
}

fn verify_code(bundle: &Bundle, id: u32) -> Result<(), BundleError> {
    let header = bundle.function(id);
    let code = bundle.code(id);
    let mut starts = vec![false; code.len()];
    let mut cx = VerifyCx {
        frame_size: header.frame_size,
        string_count: bundle.string_count(),
        function_count: bundle.function_count(),
        ic_count: header.ic_count,
        pc: 0,
        arg_start: None,
        jump_targets: Vec::new(),
    };
    let mut pc = 0;
    let mut last = Opcode::Wide;
    while pc < code.len() {
        let (inst, len) = Inst::decode(code, pc).map_err(|e| BundleError::at_pc(id, pc, e.to_string()))?;
        starts[pc] = true;
        cx.pc = pc;
        cx.arg_start = None;
        inst.verify_operands(&mut cx).map_err(|(operand, message)| {
            let mnemonic = inst.opcode().mnemonic();
            BundleError::at_pc(id, pc, format!("`{mnemonic}` operand `{operand}`: {message}"))
        })?;
        match inst {
            Inst::CreateGenerator { func, .. }
                if !bundle.function(func).flags.contains(FunctionFlags::GENERATOR_INNER) =>
            {
                return Err(BundleError::at_pc(
                    id,
                    pc,
                    format!("create_generator of f{func}, which is not a generator body"),
                ));
            }
            Inst::CreateClosure { func, .. }
                if bundle.function(func).flags.contains(FunctionFlags::GENERATOR_INNER) =>
            {
                return Err(BundleError::at_pc(id, pc, format!("create_closure of generator body f{func}")));
            }
            _ => {}
        }
        last = inst.opcode();
        pc += len;
    }
    if !last.is_terminator() {
        return Err(BundleError::in_function(id, format!("code ends with `{}`, not a terminator", last.mnemonic())));
    }
    let is_start = |pc: i64| pc >= 0 && (pc as usize) < code.len() && starts[pc as usize];
    for &(from, target) in &cx.jump_targets {
        if !is_start(target) {
            return Err(BundleError::at_pc(
                id,
                from,
                format!("jump target {target} is not an instruction of the function"),
            ));
        }
    }
    for (i, h) in bundle.handlers_iter(id).enumerate() {
        let end_ok = h.end as usize == code.len() || is_start(i64::from(h.end));
        if h.start >= h.end || !is_start(i64::from(h.start)) || !end_ok {
            return Err(BundleError::in_function(id, format!("handler {i}: bad range [{}, {})", h.start, h.end)));
        }
        let catches = is_start(i64::from(h.target))
            && matches!(Inst::decode(code, h.target as usize), Ok((Inst::Catch { .. }, _)));
        if !catches {
            return Err(BundleError::in_function(
                id,
                format!("handler {i}: target {} does not start with `catch`", h.target),
            ));
        }
    }
    let mut entries = bundle.location_entries(id);
    let mut previous = None;
    for (pc, _, _) in &mut entries {
        if previous.is_some_and(|p| pc < p) || !is_start(i64::from(pc)) {
            return Err(BundleError::in_function(
                id,
                format!("location at pc {pc} is unsorted or not at an instruction"),
            ));
        }
        previous = Some(pc);
    }
    if !entries.decoded_whole() {
        return Err(BundleError::in_function(id, "malformed location entries".to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::tests::{fix_checksum, sample_bytes};
    use crate::bundle::{BundleBuilder, FunctionDesc, HandlerEntry};

    /// A bundle whose global function is `insts` (frame 4, 1 ic slot) next to a plain
    /// function f1 and a generator body f2. Strings: 0 "", 1 "x".
    fn with_global(insts: &[Inst], handlers: Vec<HandlerEntry>) -> Result<Bundle, BundleError> {
        let mut code = Vec::new();
        for inst in insts {
            inst.encode(&mut code);
        }
        with_desc(FunctionDesc { frame_size: 4, ic_count: 1, code, handlers, ..Default::default() })
    }

    fn with_desc(global: FunctionDesc) -> Result<Bundle, BundleError> {
        let mut b = BundleBuilder::new("t.js");
        b.add_str("");
        b.add_str("x");
        for _ in 0..3 {
            b.reserve_function();
        }
        let mut ret = Vec::new();
        Inst::Ret { value: 0 }.encode(&mut ret);
        b.define_function(0, global);
        b.define_function(1, FunctionDesc { frame_size: 1, code: ret.clone(), ..Default::default() });
        b.define_function(
            2,
            FunctionDesc { frame_size: 1, flags: FunctionFlags::GENERATOR_INNER, code: ret, ..Default::default() },
        );
        Bundle::from_bytes(b.finish())
    }

    fn rejects(insts: &[Inst], needle: &str) {
        let err = with_global(insts, vec![]).unwrap_err();
        assert!(err.message.contains(needle), "expected {needle:?} in: {err}");
        assert_eq!(err.function, Some(0));
    }

    const RET: Inst = Inst::Ret { value: 0 };

    #[test]
    fn valid_code_passes() {
        let b = with_global(
            &[
                Inst::LoadConstString { dst: 3, id: 1 },
                Inst::GetById { dst: 1, obj: 3, name: 0, ic: 0 },
                Inst::CreateClosure { dst: 2, env: 0, func: 1 },
                Inst::CreateGenerator { dst: 2, env: 0, func: 2 },
                Inst::Call { dst: 0, callee: 2, first: 1, argc: 3 },
                Inst::CallBuiltin { dst: 0, builtin: 0, first: 3, argc: 0 },
                Inst::JmpTrue { off: 5, cond: 0 },
                Inst::Jmp { off: -3 },
                Inst::ThrowError { kind: 4, msg: 1 },
            ],
            vec![],
        );
        assert!(b.is_ok(), "{:?}", b.err());
    }

    #[test]
    fn operands_out_of_range() {
        rejects(&[Inst::Mov { dst: 4, src: 0 }, RET], "register r4 outside the frame");
        rejects(&[Inst::Mov { dst: 0, src: 300 }, RET], "register r300");
        rejects(&[Inst::Call { dst: 0, callee: 0, first: 2, argc: 3 }, RET], "argument registers");
        rejects(&[Inst::Call { dst: 0, callee: 0, first: 4, argc: 0 }, RET], "register r4");
        rejects(&[Inst::LoadConstString { dst: 0, id: 2 }, RET], "string id 2");
        rejects(&[Inst::CreateClosure { dst: 0, env: 0, func: 3 }, RET], "function id 3");
        rejects(&[Inst::GetById { dst: 0, obj: 0, name: 0, ic: 1 }, RET], "inline-cache slot 1");
        rejects(&[Inst::CallBuiltin { dst: 0, builtin: 200, first: 0, argc: 0 }, RET], "unknown builtin id 200");
        rejects(&[Inst::ThrowError { kind: 8, msg: 0 }], "unknown error kind 8");
    }

    #[test]
    fn generator_bodies_only_through_create_generator() {
        rejects(&[Inst::CreateGenerator { dst: 0, env: 0, func: 1 }, RET], "not a generator body");
        rejects(&[Inst::CreateClosure { dst: 0, env: 0, func: 2 }, RET], "generator body f2");
    }

    #[test]
    fn bad_jump_targets() {
        // Into the middle of an instruction, past the end, before the start, onto itself
        // is fine (an infinite loop), save_generator checked too.
        rejects(&[Inst::Jmp { off: 1 }, RET], "jump target 1");
        rejects(&[Inst::Jmp { off: 4 }, RET], "jump target 4");
        rejects(&[RET, Inst::Jmp { off: -3 }], "jump target -1");
        rejects(&[Inst::SaveGenerator { off: 7 }, RET], "jump target 7");
        assert!(with_global(&[Inst::Jmp { off: 0 }], vec![]).is_ok());
        rejects(&[Inst::JmpFalse { off: 5000, cond: 0 }, RET], "jump target 5000");
    }

    #[test]
    fn code_must_end_in_a_terminator() {
        rejects(&[Inst::Mov { dst: 0, src: 0 }], "not a terminator");
        rejects(&[RET, Inst::JmpTrue { off: -2, cond: 0 }], "not a terminator");
        let err = with_desc(FunctionDesc { frame_size: 1, code: vec![255], ..Default::default() });
        assert!(err.unwrap_err().message.contains("unknown opcode"));
        let err = with_desc(FunctionDesc { frame_size: 1, code: vec![0, 0], ..Default::default() });
        assert!(err.unwrap_err().message.contains("doubled wide"));
    }

    #[test]
    fn inline_caches_are_bounded_by_the_code() {
        let mut code = Vec::new();
        RET.encode(&mut code);
        let len = code.len() as u32;
        let desc = FunctionDesc { frame_size: 1, code, ..Default::default() };
        assert!(with_desc(FunctionDesc { ic_count: len, ..desc.clone() }).is_ok());
        // A count the loader would have allocated hundreds of gigabytes for.
        let err = with_desc(FunctionDesc { ic_count: 1 << 30, ..desc }).unwrap_err();
        assert!(err.message.contains("inline caches for"), "{err}");
    }

    #[test]
    fn handlers_are_checked() {
        let body = [
            Inst::Mov { dst: 0, src: 1 }, // 0..3
            Inst::Throw { value: 0 },     // 3..5
            Inst::Catch { dst: 1 },       // 5..7
            Inst::Ret { value: 1 },       // 7..9
        ];
        let h = |start, end, target| vec![HandlerEntry { start, end, target }];
        assert!(with_global(&body, h(0, 5, 5)).is_ok());
        assert!(with_global(&body, h(0, 9, 5)).is_ok());
        let msg = |hs| with_global(&body, hs).unwrap_err().message;
        assert!(msg(h(0, 5, 3)).contains("does not start with `catch`"));
        assert!(msg(h(0, 5, 6)).contains("does not start with `catch`"));
        assert!(msg(h(0, 5, 90)).contains("does not start with `catch`"));
        assert!(msg(h(3, 3, 5)).contains("bad range"));
        assert!(msg(h(1, 5, 5)).contains("bad range"));
        assert!(msg(h(0, 4, 5)).contains("bad range"));
        assert!(msg(h(0, 10, 5)).contains("bad range"));
    }

    #[test]
    fn function_entries_are_checked() {
        let mut code = Vec::new();
        RET.encode(&mut code);
        let base = FunctionDesc { frame_size: 1, code, ..Default::default() };
        let msg = |d: FunctionDesc| with_desc(d).unwrap_err().message;
        assert!(msg(FunctionDesc { name: 2, ..base.clone() }).contains("name string 2"));
        let source = Some(crate::SourceRange { start: 0, len: 7 });
        assert!(msg(FunctionDesc { source, ..base.clone() }).contains("source text range outside"));
        assert!(msg(FunctionDesc { flags: FunctionFlags(1024), ..base.clone() }).contains("flags"));
        assert!(msg(FunctionDesc { frame_size: MAX_FRAME_SIZE + 1, ..base.clone() }).contains("exceeds"));
        assert!(msg(FunctionDesc { frame_size: 0, ..base.clone() }).contains("register r0"));
        assert!(
            msg(FunctionDesc { locations: vec![(0, 1, 1), (3, 1, 1)], ..base.clone() }).contains("location at pc 3")
        );
        let mut two = Vec::new();
        Inst::Mov { dst: 0, src: 0 }.encode(&mut two);
        RET.encode(&mut two);
        let sorted = FunctionDesc { code: two, ..base.clone() };
        assert!(with_desc(FunctionDesc { locations: vec![(0, 1, 1), (3, 2, 1)], ..sorted.clone() }).is_ok());
        // Entries out of order cannot be written: the pc's distance wraps, and the run no
        // longer decodes.
        assert!(msg(FunctionDesc { locations: vec![(3, 1, 1), (0, 2, 1)], ..sorted }).contains("malformed location"));
    }

    #[test]
    fn truncation_at_every_length_is_rejected() {
        let bytes = sample_bytes();
        for len in 0..bytes.len() {
            assert!(Bundle::from_bytes(bytes[..len].to_vec()).is_err(), "length {len}");
        }
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[0; 8]);
        assert!(Bundle::from_bytes(longer).is_err());
    }

    #[test]
    fn every_flipped_byte_is_rejected() {
        let bytes = sample_bytes();
        for i in 0..bytes.len() {
            for bit in [0x01, 0x80] {
                let mut b = bytes.clone();
                b[i] ^= bit;
                assert!(Bundle::from_bytes(b).is_err(), "byte {i} bit {bit:#x}");
            }
        }
    }

    #[test]
    fn header_corruption_behind_a_valid_checksum() {
        let bytes = sample_bytes();
        let corrupt = |at: usize, v: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            fix_checksum(&mut b);
            Bundle::from_bytes(b).unwrap_err().message
        };
        assert!(corrupt(0, 0).contains("magic"));
        assert!(corrupt(OFF_VERSION, BUNDLE_VERSION + 1).contains("version"));
        assert!(corrupt(OFF_FLAGS, 0x8000).contains("flags"));
        assert!(corrupt(OFF_FLAGS, 0).contains("debug-info"));
        assert!(corrupt(OFF_HEADER_SIZE, 8).contains("header size"));
        assert!(corrupt(OFF_FUNCTION_COUNT, 3).contains("function section size"));
        assert!(corrupt(OFF_STRING_COUNT, 99).contains("string table section size"));
        let reserved = OFF_SECTIONS + 8 * SECTIONS.len();
        assert!(corrupt(reserved + 4, 8).contains("reserved section 10"));
        let code = OFF_SECTIONS + 8 * Section::Code as usize;
        assert!(corrupt(code, 4).contains("out of bounds or misaligned"));
        assert!(corrupt(code, 1 << 30).contains("out of bounds"));
        let strings = OFF_SECTIONS + 8 * Section::StringTable as usize;
        let functions_at = read_u32(&bytes, OFF_SECTIONS).unwrap();
        assert!(corrupt(strings, functions_at).contains("overlap"));
    }

    #[test]
    fn table_corruption_behind_a_valid_checksum() {
        let bytes = sample_bytes();
        let section_at = |s: Section| read_u32(&bytes, OFF_SECTIONS + 8 * s as usize).unwrap() as usize;
        let corrupt = |at: usize, v: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            fix_checksum(&mut b);
            Bundle::from_bytes(b).unwrap_err()
        };
        let strings = section_at(Section::StringTable);
        assert!(corrupt(strings + 4, 1000 << 1).message.contains("string 0: bad entry"));
        assert!(corrupt(strings + 12, 100 << 1 | 1).message.contains("string 1: bad entry"));
        let f1 = section_at(Section::Functions) + FUNCTION_ENTRY_SIZE;
        let e = corrupt(f1 + 4 * FN_CODE_LEN, 1000);
        assert_eq!(e.function, Some(1));
        assert!(e.message.contains("code outside"));
        assert!(corrupt(f1 + 4 * FN_LOCATION_OFFSET, 1000).message.contains("locations outside"));
        assert!(corrupt(f1 + 4 * FN_INFO, 1 << 20).message.contains("info record truncated"));
        // Function 0's handler count (after six one-byte numbers) becomes 100 000 000.
        let info = section_at(Section::FunctionInfo);
        let mut b = bytes.clone();
        b[info + 6..info + 10].copy_from_slice(&[0x80, 0xc2, 0xd7, 0x2f]);
        fix_checksum(&mut b);
        assert!(Bundle::from_bytes(b).unwrap_err().message.contains("cannot fit"));
        // Function 1's source text (its record's sixth and seventh numbers) grows past the
        // bundle's.
        let f1_info = info + read_u32(&bytes, f1 + 4 * FN_INFO).unwrap() as usize;
        let mut b = bytes.clone();
        assert_eq!(b[f1_info + 6], 25);
        b[f1_info + 6] = 26;
        fix_checksum(&mut b);
        assert!(Bundle::from_bytes(b).unwrap_err().message.contains("source text range outside"));
        // Function 1's frame of 1 register (its record's third number) becomes 0: its
        // code uses r0.
        let mut b = bytes.clone();
        assert_eq!(b[f1_info + 2], 1);
        b[f1_info + 2] = 0;
        fix_checksum(&mut b);
        assert!(Bundle::from_bytes(b).unwrap_err().message.contains("register r0"));
        // A location run that stops inside an entry.
        let locations = section_at(Section::Locations);
        let mut b = bytes.clone();
        b[locations] = 0x80;
        b[locations + 1] = 0x80;
        b[locations + 2] = 0x80;
        fix_checksum(&mut b);
        assert!(Bundle::from_bytes(b).unwrap_err().message.contains("location"));
    }

    /// Random mutations behind a valid checksum never panic; whatever passes is usable.
    #[test]
    fn fuzz_mutations_never_panic() {
        fuzz_mutations(sample_bytes());
        // With the source text compressed: mutations of the block table and of the blocks.
        let (mut b, descs) = crate::bundle::tests::sample();
        b.set_source_mode(crate::SourceMode::Compressed);
        for (id, desc) in descs.into_iter().enumerate() {
            b.define_function(id as u32, desc);
        }
        fuzz_mutations(b.finish());
    }

    fn fuzz_mutations(bytes: Vec<u8>) {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut accepted = 0;
        for _ in 0..4000 {
            let mut b = bytes.clone();
            for _ in 0..1 + next() % 4 {
                let i = (next() % b.len() as u64) as usize;
                b[i] = match next() % 4 {
                    0 => next() as u8,
                    1 => b[i].wrapping_add(1),
                    2 => b[i].wrapping_sub(1),
                    _ => 0xFF,
                };
            }
            if next() % 8 == 0 {
                b.truncate((next() % b.len() as u64) as usize & !7);
            }
            fix_checksum(&mut b);
            if let Ok(bundle) = Bundle::from_bytes(b) {
                accepted += 1;
                let _ = crate::disassemble(&bundle);
                for id in 0..bundle.function_count() {
                    let code = bundle.code(id);
                    let mut pc = 0;
                    while pc < code.len() {
                        pc += Inst::decode(code, pc).unwrap().1;
                    }
                    let _ = bundle.location(id, u32::MAX);
                    let _ = bundle.handlers(id);
                    let _ = bundle.function_source(id);
                }
                for id in 0..bundle.string_count() {
                    let _ = bundle.string_units(id);
                }
            }
        }
        // Mutations of string characters, locations and such keep a bundle valid.
        assert!(accepted > 0);
    }
}
