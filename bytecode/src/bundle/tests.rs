//! Bundle round trips, and the sample bundle other tests corrupt.

use super::format::*;
use super::*;
use crate::assembler::Assembler;
use crate::inst::Inst;

/// Recomputes the checksum after a test edited the bytes, so the structural checks behind
/// it get exercised.
pub(crate) fn fix_checksum(bytes: &mut [u8]) {
    if bytes.len() >= OFF_CHECKSUM + 8 {
        let sum = checksum(bytes);
        bytes[OFF_CHECKSUM..OFF_CHECKSUM + 8].copy_from_slice(&sum.to_le_bytes());
    }
}

/// A global function with a try/catch calling a closure, and a strict function `f` that
/// throws a TypeError whose message is a two-byte string.
pub(crate) fn sample() -> (BundleBuilder, Vec<FunctionDesc>) {
    let mut b = BundleBuilder::new("app.js");
    b.set_source_hash(hash_source("function f(x) {}"));
    let global = b.reserve_function();
    let f = b.reserve_function();
    assert_eq!((global, f), (0, 1));
    let empty = b.add_str("");
    let hello = b.add_str("hello");
    let length = b.add_str("length");
    let f_name = b.add_str("f");
    let bad = b.add_str("bad \u{2603} \"x\"\n");
    let base = b.add_source_text("/* app */ ");
    let text = "function f(x) { throw 1 }";
    assert_eq!(b.add_source_text(text), base + 10);
    let source = SourceRange { start: base + 10, len: text.len() as u32 };
    assert_eq!(b.add_str("hello"), hello, "strings are interned");

    let mut asm = Assembler::new();
    let (try_start, try_end, handler, end) = (asm.new_label(), asm.new_label(), asm.new_label(), asm.new_label());
    asm.set_loc(1, 1);
    asm.bind(try_start);
    asm.emit(Inst::LoadConstString { dst: 0, id: hello });
    asm.emit(Inst::GetById { dst: 1, obj: 0, name: length, ic: 0 });
    asm.set_loc(2, 3);
    asm.emit(Inst::CreateClosure { dst: 2, env: 0, func: f });
    asm.emit(Inst::Call { dst: 3, callee: 2, first: 0, argc: 2 });
    asm.bind(try_end);
    asm.emit_branch(Inst::Jmp { off: 0 }, end);
    asm.bind(handler);
    asm.set_loc(3, 9);
    asm.emit(Inst::Catch { dst: 0 });
    asm.bind(end);
    asm.emit(Inst::Ret { value: 0 });
    let out = asm.finish().unwrap();
    let global_desc = FunctionDesc {
        name: empty,
        length: 0,
        param_count: 0,
        frame_size: 4,
        ic_count: 1,
        flags: FunctionFlags::NONE,
        code: out.code,
        handlers: vec![HandlerEntry {
            start: out.label_offsets[try_start.index()],
            end: out.label_offsets[try_end.index()],
            target: out.label_offsets[handler.index()],
        }],
        locations: out.locations,
        source: None,
        lazy_scope: None,
    };

    let mut asm = Assembler::new();
    asm.set_loc(1, 17);
    asm.emit(Inst::LoadParam { dst: 0, index: 1 });
    asm.emit(Inst::ThrowError { kind: 1, msg: bad });
    let out = asm.finish().unwrap();
    let f_desc = FunctionDesc {
        name: f_name,
        length: 1,
        param_count: 1,
        frame_size: 1,
        ic_count: 0,
        flags: FunctionFlags::STRICT | FunctionFlags::CONSTRUCTOR,
        code: out.code,
        handlers: vec![],
        locations: out.locations,
        source: Some(source),
        lazy_scope: None,
    };
    (b, vec![global_desc, f_desc])
}

/// The sample's bytes.
pub(crate) fn sample_bytes() -> Vec<u8> {
    let (mut b, descs) = sample();
    for (id, desc) in descs.into_iter().enumerate() {
        b.define_function(id as u32, desc);
    }
    b.finish()
}

#[test]
fn round_trip_reads_back_everything() {
    let (mut b, descs) = sample();
    for (id, desc) in descs.iter().enumerate() {
        b.define_function(id as u32, desc.clone());
    }
    let bytes = b.finish();
    assert!(Bundle::is_bundle(&bytes));
    assert_eq!(bytes.len() % 8, 0);
    let bundle = Bundle::from_bytes(bytes).unwrap();
    assert_eq!(bundle.source_name(), "app.js");
    assert_eq!(bundle.source_hash(), hash_source("function f(x) {}"));
    assert!(bundle.has_debug_info());
    assert_eq!(bundle.function_count(), 2);
    assert_eq!(bundle.string_count(), 5);
    for (id, desc) in descs.iter().enumerate() {
        let id = id as u32;
        let h = bundle.function(id);
        assert_eq!(h.name, desc.name);
        assert_eq!(h.length, desc.length);
        assert_eq!(h.param_count, desc.param_count);
        assert_eq!(h.frame_size, desc.frame_size);
        assert_eq!(h.ic_count, desc.ic_count);
        assert_eq!(h.flags, desc.flags);
        assert_eq!(h.source, desc.source);
        assert_eq!(h.code_len as usize, desc.code.len());
        assert_eq!(bundle.code(id), &desc.code[..]);
        assert_eq!(bundle.handlers(id), desc.handlers);
        assert_eq!(bundle.handlers_iter(id).len(), desc.handlers.len());
        assert_eq!(bundle.locations(id), desc.locations);
    }
    let units = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
    assert_eq!(bundle.string_units(1), units("hello"));
    assert!(matches!(bundle.string(1), BundleStr::OneByte(b"hello")));
    assert!(matches!(bundle.string(4), BundleStr::TwoByte(_)));
    assert_eq!(bundle.string(4).to_string_lossy(), "bad \u{2603} \"x\"\n");
    assert_eq!(bundle.string(4).unit(4), 0x2603);
    assert!(bundle.string(0).is_empty());
    assert_eq!(bundle.string_units(bundle.function(1).name), units("f"));
}

#[test]
fn locations_cover_following_instructions() {
    let bundle = Bundle::from_bytes(sample_bytes()).unwrap();
    // Global: (1,1) at 0, (2,3) at the closure, (3,9) at the catch.
    let locs = bundle.locations(0);
    assert_eq!(locs.len(), 3);
    assert_eq!(bundle.location(0, 0), Some((1, 1)));
    assert_eq!(bundle.location(0, locs[1].0 - 1), Some((1, 1)));
    assert_eq!(bundle.location(0, locs[1].0), Some((2, 3)));
    assert_eq!(bundle.location(0, locs[2].0 + 1), Some((3, 9)));
    assert_eq!(bundle.location(0, 10_000), Some((3, 9)));
    assert_eq!(bundle.location(1, 0), Some((1, 17)));
}

#[test]
fn no_locations_no_debug_flag() {
    let (mut b, descs) = sample();
    for (id, mut desc) in descs.into_iter().enumerate() {
        desc.locations.clear();
        b.define_function(id as u32, desc);
    }
    let bundle = Bundle::from_bytes(b.finish()).unwrap();
    assert!(!bundle.has_debug_info());
    assert_eq!(bundle.location(0, 0), None);
}

#[test]
fn two_byte_strings_with_surrogates() {
    let mut b = BundleBuilder::new("s.js");
    let lone = b.add_string(&[0xD800, 0x41]);
    let pair = b.add_str("\u{1F600}");
    let latin = b.add_string(&[0xE9, 0xFF]);
    let id = b.reserve_function();
    let mut code = Vec::new();
    Inst::LoadConstString { dst: 0, id: lone }.encode(&mut code);
    Inst::Ret { value: 0 }.encode(&mut code);
    b.define_function(id, FunctionDesc { name: latin, frame_size: 1, code, ..Default::default() });
    let bundle = Bundle::from_bytes(b.finish()).unwrap();
    assert_eq!(bundle.string_units(lone), vec![0xD800, 0x41]);
    assert_eq!(bundle.string_units(pair), vec![0xD83D, 0xDE00]);
    assert!(matches!(bundle.string(latin), BundleStr::OneByte(&[0xE9, 0xFF])));
}

#[test]
fn sections_are_aligned_and_in_bounds() {
    let bytes = sample_bytes();
    for i in 0..SECTION_COUNT {
        let offset = read_u32(&bytes, OFF_SECTIONS + 8 * i).unwrap() as usize;
        let size = read_u32(&bytes, OFF_SECTIONS + 8 * i + 4).unwrap() as usize;
        assert_eq!(offset % SECTION_ALIGN, 0);
        assert!(offset + size <= bytes.len());
        if i >= SECTIONS.len() {
            assert_eq!((offset, size), (0, 0), "reserved section {i}");
        }
    }
}

#[test]
fn undefined_function_is_rejected() {
    let (mut b, descs) = sample();
    b.define_function(0, descs[0].clone());
    let err = Bundle::from_bytes(b.finish()).unwrap_err();
    assert_eq!(err.function, Some(1));
    assert!(err.message.contains("no code"), "{err}");
}

/// A bundle of one function per range of `text`, kept in `mode`.
fn with_source(text: &str, ranges: &[(u32, u32)], mode: SourceMode) -> Bundle {
    let mut b = BundleBuilder::new("s.js");
    b.set_source_mode(mode);
    let base = b.add_source_text(text);
    let name = b.add_str("");
    let mut code = Vec::new();
    Inst::Ret { value: 0 }.encode(&mut code);
    for &(start, len) in ranges {
        let id = b.reserve_function();
        let source = Some(SourceRange { start: base + start, len });
        b.define_function(id, FunctionDesc { name, frame_size: 1, code: code.clone(), source, ..Default::default() });
    }
    Bundle::from_bytes(b.finish()).unwrap()
}

#[test]
fn source_text_is_kept_once_and_read_back_by_range() {
    // Over three compressed blocks, with a two-byte character across the first boundary.
    let mut text = "x".repeat(SOURCE_BLOCK_SIZE - 1);
    text.push('é');
    text.push_str(&"function f() { return 1 }\n".repeat(3000));
    let f = SOURCE_BLOCK_SIZE as u32 + 1;
    let ranges = [(0, 3), (f, 25), (SOURCE_BLOCK_SIZE as u32 - 2, 5), (0, text.len() as u32), (7, 0)];
    let expect = |(start, len): (u32, u32)| &text[start as usize..(start + len) as usize];
    for mode in [SourceMode::Plain, SourceMode::Compressed] {
        let bundle = with_source(&text, &ranges, mode);
        for (id, &range) in ranges.iter().enumerate() {
            assert_eq!(bundle.function_source(id as u32).as_deref(), Some(expect(range)), "{mode:?} {range:?}");
        }
        let size = bundle.section_sizes().into_iter().find(|s| s.0 == "source text").unwrap().1;
        match mode {
            SourceMode::Plain => assert_eq!(size, text.len() + 8),
            _ => assert!(size < text.len() / 10, "{size}"),
        }
    }
    let stripped = with_source(&text, &ranges, SourceMode::Stripped);
    assert_eq!(stripped.function(0).source, None);
    assert_eq!(stripped.function_source(0), None);
    assert!(stripped.section_sizes().iter().all(|s| s.0 != "source text"));
}

#[test]
fn damaged_source_text_gives_no_text_and_no_panic() {
    let text = "function g() {}\n".repeat(10_000);
    let bytes = with_source(&text, &[(0, 15), (SOURCE_BLOCK_SIZE as u32 + 3, 40)], SourceMode::Compressed).into_bytes();
    let at = read_u32(&bytes, OFF_SECTIONS + 8 * Section::SourceText as usize).unwrap() as usize;
    let blocks = text.len().div_ceil(SOURCE_BLOCK_SIZE);
    // Damage the first compressed block: its function's text is gone, the other's stays.
    let mut b = bytes.clone();
    let data = at + 8 + 4 * blocks;
    for byte in &mut b[data..data + 8] {
        *byte ^= 0x5a;
    }
    fix_checksum(&mut b);
    let bundle = Bundle::from_bytes(b).unwrap();
    assert_eq!(bundle.function_source(0), None);
    assert_eq!(bundle.function_source(1).as_deref(), Some(&text[SOURCE_BLOCK_SIZE + 3..SOURCE_BLOCK_SIZE + 43]));
    // A block table out of order, an unknown encoding and a wrong length are rejected.
    for (offset, value, message) in [(at + 8, u32::MAX, "block table"), (at, 7, "encoding"), (at + 4, 1, "block")] {
        let mut b = bytes.clone();
        b[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
        fix_checksum(&mut b);
        let err = Bundle::from_bytes(b).unwrap_err();
        assert!(err.message.contains(message), "{err}");
    }
}

#[test]
fn lazy_functions_name_their_scope_and_need_text() {
    let lazy = |scope: u32, source: Option<SourceRange>| {
        let mut b = BundleBuilder::new("l.js");
        b.add_source_text("function f() {}");
        let name = b.add_str("f");
        let desc = b.add_str("f\n- x:l@3");
        let mut code = Vec::new();
        Inst::Ret { value: 0 }.encode(&mut code);
        let id = b.reserve_function();
        // A function without the flag: no scope.
        b.define_function(id, FunctionDesc { name, frame_size: 1, code: code.clone(), ..Default::default() });
        let id = b.reserve_function();
        b.define_function(
            id,
            FunctionDesc {
                name,
                frame_size: 1,
                flags: FunctionFlags::LAZY,
                code,
                source,
                lazy_scope: Some(if scope == u32::MAX { desc } else { scope }),
                ..Default::default()
            },
        );
        Bundle::from_bytes(b.finish())
    };
    let text = Some(SourceRange { start: 0, len: 15 });
    let bundle = lazy(u32::MAX, text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bundle.lazy_scope(0), None);
    let scope = bundle.lazy_scope(1).unwrap();
    assert_eq!(bundle.string(scope).to_string_lossy(), "f\n- x:l@3");
    assert!(lazy(99, text).unwrap_err().message.contains("lazy scope string 99"));
    assert!(lazy(u32::MAX, None).unwrap_err().message.contains("without source text"));
}
