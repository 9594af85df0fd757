//! Backend tests: hand-written HIR → bundle, verified by `Bundle::from_bytes`, with the
//! disassembly checked for small cases.

use bytecode::Bundle;

use super::{compile_module, compile_module_with_stats, BackendOptions, FunctionStats};

/// Compiles HIR text; returns the verified bundle and its disassembly.
fn compile(text: &str) -> (Bundle, String) {
    let module = ir::parse::parse_module(text).unwrap_or_else(|e| panic!("bad test IR: {e}"));
    let bytes = compile_module(module, &BackendOptions { debug_info: true, ..BackendOptions::default() }).unwrap();
    let bundle = Bundle::from_bytes(bytes).unwrap_or_else(|e| panic!("bundle rejected: {e}"));
    let text = bytecode::disassemble(&bundle);
    (bundle, text)
}

fn stats(text: &str) -> Vec<FunctionStats> {
    let mut module = ir::parse::parse_module(text).unwrap();
    compile_module_with_stats(&mut module, &BackendOptions::default()).unwrap().1
}

/// The code lines (`  pc: inst`, pc stripped) of function `id` in a disassembly.
fn code_of(dis: &str, id: u32) -> Vec<String> {
    let header = format!("function {id} ");
    let mut lines = dis.lines().skip_while(|l| !l.starts_with(&header)).skip(1);
    let mut out = Vec::new();
    for l in lines.by_ref() {
        let t = l.trim_start();
        match t.split_once(": ") {
            Some((pc, inst)) if pc.len() == 4 && pc.chars().all(|c| c.is_ascii_digit()) => out.push(inst.to_string()),
            _ => break,
        }
    }
    out
}

#[test]
fn typed_add_uses_add_n() {
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1 : any
  %1 = as_number %0 : number
  %2 = binary_op "+" %1, 2 : number
  %3 = binary_op "+" %0, %2
  return %3
"#,
    );
    let code = code_of(&dis, 0);
    assert_eq!(
        code,
        vec![
            "load_param r0, 1",
            "to_number r1, r0",
            "load_const_int r2, 2",
            "add_n r1, r1, r2",
            "add r0, r0, r1",
            "ret r0",
        ],
        "{dis}"
    );
}

#[test]
fn literal_is_materialized_once_per_block() {
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1 : any
  %1 = binary_op "*" %0, 3
  %2 = binary_op "*" %1, 3
  branch %BB1
%BB1:
  %3 = binary_op "*" %2, 3
  return %3
"#,
    );
    let code = code_of(&dis, 0);
    assert_eq!(code.iter().filter(|l| l.starts_with("load_const_int")).count(), 2, "{dis}");
    assert!(!code.iter().any(|l| l.starts_with("jmp")), "the branch falls through: {dis}");
}

#[test]
fn phi_moves_and_swap_cycle() {
    // function(a, b, n) { while (n) { [a, b] = [b, a]; n = n - 1; } return a - b; }
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1 : any
  %1 = load_param #2 : any
  %2 = load_param #3 : any
  branch %BB1
%BB1:
  %3 = phi [%0, %BB0], [%4, %BB2]
  %4 = phi [%1, %BB0], [%3, %BB2]
  %5 = phi [%2, %BB0], [%6, %BB2]
  cond_branch %5, %BB2, %BB3
%BB2:
  %6 = binary_op "-" %5, 1
  branch %BB1
%BB3:
  %7 = binary_op "-" %3, %4
  return %7
"#,
    );
    let code = code_of(&dis, 0);
    // The literal 1 used in the loop is loaded once, in the entry block (r0); a, b and n
    // are in r1-r3. The swap needs the scratch register r4, the top of the frame.
    assert_eq!(code[0], "load_const_int r0, 1", "{dis}");
    let movs: Vec<&String> = code.iter().filter(|l| l.starts_with("mov")).collect();
    assert_eq!(movs, vec!["mov r4, r1", "mov r1, r2", "mov r2, r4"], "{dis}");
    assert!(dis.contains("frame 5"), "{dis}");
    // The decrement is not moved: it is coalesced with its phi.
    assert!(code.contains(&"sub r3, r3, r0".to_string()), "{dis}");
    // Entry values are coalesced with the phis: no moves before the loop.
    assert!(code[1..4].iter().all(|l| l.starts_with("load_param")), "{dis}");
}

#[test]
fn critical_edge_is_split() {
    // %BB0 -> %BB2 is critical (BB0 has two successors, BB2 two predecessors) and its phi
    // operand is a literal; the move goes into a block of its own.
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1 : any
  cond_branch %0, %BB1, %BB2
%BB1:
  %1 = binary_op "+" %0, 1
  branch %BB2
%BB2:
  %2 = phi [%1, %BB1], [7, %BB0]
  return %2
"#,
    );
    let code = code_of(&dis, 0);
    assert_eq!(
        code,
        vec![
            "load_param r0, 1",
            "jmp_true @0014, r0",
            "load_const_int r0, 7",
            "jmp @0024",
            "load_const_int r1, 1",
            "add r0, r0, r1",
            "ret r0",
        ],
        "{dis}"
    );
}

#[test]
fn call_arguments_are_consecutive() {
    let (bundle, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1 : any
  %1 = load_param #2 : any
  %2 = binary_op "+" %1, 1
  %3 = call %0, undefined, %2, "x", %1
  %4 = construct %0, %0, %3
  %5 = call_builtin #3 %4
  return %5
"#,
    );
    // Argument registers are r2..r5; every value that dies as an argument is computed
    // straight into its argument register (%1 into r5, %2 into r3, the call's result into
    // the construct's argument 1, the construct's result into call_builtin's argument 0).
    let code = code_of(&dis, 0);
    assert_eq!(
        code,
        vec![
            "load_param r0, 1",
            "load_param r5, 2",
            "load_const_int r1, 1",
            "add r3, r5, r1",
            "load_const_undefined r2",
            "load_const_string r4, \"x\"",
            "call r3, r0, r2, 4",
            "construct r2, r0, r0, r2, 2",
            "call_builtin r0, getPrototypeOf, r2, 1",
            "ret r0",
        ],
        "{dis}"
    );
    assert_eq!(bundle.function(0).frame_size, 6, "{dis}");
}

#[test]
fn try_catch_handler_table() {
    let (bundle, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1 : any
  try_start %BB1, %BB3
%BB1:
  %1 = call %0, undefined
  try_end %BB2
%BB2:
  return %1
%BB3:
  %2 = catch
  %3 = binary_op "+" %2, %0
  return %3
"#,
    );
    let handlers = bundle.handlers(0);
    assert_eq!(handlers.len(), 1, "{dis}");
    let h = handlers[0];
    let code = bundle.code(0);
    let (first, _) = bytecode::Inst::decode(code, h.target as usize).unwrap();
    assert_eq!(first.opcode(), bytecode::Opcode::Catch);
    // The call is inside the range, the return after it is not.
    let lines = code_of(&dis, 0);
    assert!(lines.iter().any(|l| l.starts_with("call")), "{dis}");
    assert!(h.start < h.end && h.end <= h.target, "{dis}");
    // %0 is read by the handler, so it must survive the try body: the call result and
    // the callee never share its register.
    assert!(dis.contains("call r1, r0,") || dis.contains("call r2, r0,"), "{dis}");
}

#[test]
fn nested_try_regions_inner_first() {
    let (bundle, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1 : any
  try_start %BB1, %BB6
%BB1:
  %1 = call %0, undefined
  try_start %BB2, %BB4
%BB2:
  %2 = call %0, %1
  try_end %BB3
%BB3:
  %3 = call %0, %2
  try_end %BB5
%BB4:
  %4 = catch
  %5 = call %0, %4
  try_end %BB5
%BB5:
  return %0
%BB6:
  %6 = catch
  return %6
"#,
    );
    let handlers = bundle.handlers(0);
    // Inner region: one range; outer region: split around the inner handler? No: the
    // inner handler is inside the outer region too, so the outer region is one run.
    assert!(handlers.len() >= 2, "{dis}");
    let inner = handlers[0];
    let outer = *handlers.last().unwrap();
    assert!(outer.start <= inner.start && inner.end <= outer.end, "{dis}");
    assert_ne!(inner.target, outer.target);
}

#[test]
fn generator_save_and_resume() {
    let (bundle, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = create_closure @1 undefined
  return %0

function @1 "g"() kind=generator sloppy parent=none length=0
%BB0:
  %0 = create_generator @2 undefined
  return %0

function @2 "g"() kind=generator_inner sloppy parent=none length=0
%BB0:
  start_generator
  %0 = alloc_stack "isReturn"
  %1 = load_param #1
  save_and_yield %1, %BB1
%BB1:
  %2 = resume_generator %0
  %3 = load_stack %0
  cond_branch %3, %BB2, %BB3
%BB2:
  complete_generator
  return %2
%BB3:
  %4 = binary_op "+" %1, %2
  complete_generator
  return %4
"#,
    );
    let code = code_of(&dis, 2);
    assert_eq!(code[0], "start_generator", "{dis}");
    let save = code.iter().position(|l| l.starts_with("save_generator")).expect("save_generator");
    assert!(code[save + 1].starts_with("ret"), "{dis}");
    assert!(code[save + 2].starts_with("resume_generator r"), "{dis}");
    // is_return goes to the slot's dedicated register r0.
    assert!(code[save + 2].ends_with(", r0"), "{dis}");
    let f = bundle.function(2);
    assert!(f.flags.contains(bytecode::FunctionFlags::GENERATOR_INNER));
    assert!(bundle.function(1).flags.contains(bytecode::FunctionFlags::GENERATOR));
    assert!(dis.contains("create_generator r0, r"), "{dis}");
}

#[test]
fn scopes_and_globals() {
    let (bundle, dis) = compile(
        r#"module "t.js" top_level=@0

scope $0 in @0 parent=none
  $0.0 let "x"
  $0.1 var "f"

scope $1 in @1 parent=$0
  $1.0 var "y"

function @0 ""() kind=toplevel strict parent=none length=0
%BB0:
  %0 = create_scope $0 undefined
  store_frame $0.0:"x" empty, %0
  %1 = create_closure @1 %0
  store_frame $0.1:"f" %1, %0
  %2 = try_load_global "print"
  store_global "answer" %2
  %3 = load_global "maybe"
  return %3

function @1 "f"() kind=function strict parent=$0 length=0
%BB0:
  %0 = get_parent_scope $0
  %1 = create_scope $1 %0
  %2 = resolve_scope $0 %1
  %3 = load_frame $0.0:"x" %2
  %4 = throw_if_empty "x" %3
  %5 = load_property %4, "length"
  %6 = load_property %4, "0"
  %7 = load_property %4, %5
  store_property %6, %4, "name"
  store_property %6, %4, 3
  define_own_property #1 %6, %4, "k"
  define_own_property #1 %6, %4, "2"
  define_own_property #0 %6, %4, "h"
  return %7
"#,
    );
    let top = code_of(&dis, 0);
    assert!(top.contains(&"create_env r0, r0, 2".to_string()), "{dis}");
    assert!(top.iter().any(|l| l.starts_with("get_global ") && l.contains("\"print\"")), "{dis}");
    assert!(top.iter().any(|l| l.starts_with("put_global") && l.contains("\"answer\"")), "{dis}");
    assert!(top.iter().any(|l| l.starts_with("typeof_global") && l.contains("\"maybe\"")), "{dis}");
    assert_eq!(top.iter().filter(|l| l.starts_with("get_global_object")).count(), 0, "{dis}");
    let f = code_of(&dis, 1);
    assert!(f.iter().any(|l| l.starts_with("resolve_env") && l.ends_with(", 1")), "{dis}");
    assert!(f.iter().any(|l| l.starts_with("get_by_id") && l.contains("\"length\"")), "{dis}");
    assert!(f.iter().any(|l| l.starts_with("get_by_val")), "{dis}");
    assert!(f.iter().any(|l| l.starts_with("put_by_id") && l.contains("\"name\"")), "{dis}");
    assert!(f.iter().any(|l| l.starts_with("put_by_val")), "{dis}");
    assert!(f.iter().any(|l| l.starts_with("put_own_by_id") && l.contains("\"k\"")), "{dis}");
    assert!(f.iter().any(|l| l.starts_with("put_own_by_index") && l.contains(", 2, ")), "{dis}");
    assert!(f.iter().any(|l| l.starts_with("put_own_by_val")), "{dis}");
    assert!(f.iter().any(|l| l.starts_with("throw_if_empty")), "{dis}");
    assert!(bundle.function(0).flags.contains(bytecode::FunctionFlags::STRICT));
    assert!(bundle.function(1).flags.contains(bytecode::FunctionFlags::CONSTRUCTOR));
    // get_by_id, put_by_id and put_own_by_id have inline caches.
    assert_eq!(bundle.function(1).ic_count, 3, "{dis}");
    // A literal index key is loaded as a number (the VM's element fast path).
    assert!(f.contains(&"load_const_int r2, 0".to_string()), "{dis}");
}

#[test]
fn unpromoted_slots_are_registers() {
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = alloc_stack "x"
  %1 = alloc_stack "y"
  store_stack 1, %0
  %2 = load_param #1
  store_stack %2, %1
  %3 = load_stack %0
  %4 = load_stack %1
  %5 = binary_op "+" %3, %4
  store_stack %5, %0
  %6 = load_stack %0
  return %6
"#,
    );
    let code = code_of(&dis, 0);
    assert_eq!(code[0], "load_const_int r0, 1", "{dis}");
    assert!(code.contains(&"mov r1, r2".to_string()), "{dis}");
}

#[test]
fn register_count_stays_small() {
    // A long straight-line function: 200 values, each dead soon after it is made.
    let mut text = String::from(
        "module \"t.js\" top_level=@0\nfunction @0 \"\"() kind=toplevel sloppy parent=none length=0\n%BB0:\n  %0 = load_param #1\n",
    );
    for i in 1..200 {
        text.push_str(&format!("  %{i} = binary_op \"*\" %{}, %0\n", i - 1));
    }
    text.push_str("  return %199\n");
    let st = stats(&text);
    assert_eq!(st[0].ssa_values, 200);
    assert!(st[0].frame_size <= 3, "{:?}", st[0]);
}

#[test]
fn literals_used_far_apart_are_loaded_again() {
    // 100 literals, each used at the start of a long block and again at its end, as in a
    // module body's data tables: reloading them keeps the frame small.
    let mut text = String::from(
        "module \"t.js\" top_level=@0\nfunction @0 \"\"() kind=toplevel sloppy parent=none length=0\n%BB0:\n  %0 = load_param #1\n",
    );
    let mut last = 0;
    for round in 0..2 {
        for k in 0..100 {
            let i = 1 + round * 100 + k;
            text.push_str(&format!("  %{i} = binary_op \"*\" %{last}, {}\n", 1000 + k));
            last = i;
        }
    }
    text.push_str(&format!("  return %{last}\n"));
    let st = stats(&text);
    assert!(st[0].frame_size <= 4, "{:?}", st[0]);
}

#[test]
fn wide_registers_when_frame_is_large() {
    // 300 values all live at once force registers above 255 (wide encodings).
    let mut text = String::from(
        "module \"t.js\" top_level=@0\nfunction @0 \"\"() kind=toplevel sloppy parent=none length=0\n%BB0:\n",
    );
    for i in 0..300 {
        text.push_str(&format!("  %{i} = load_param #{}\n", i % 5));
    }
    for i in 300..599 {
        let lhs = if i == 300 { 0 } else { i - 1 };
        text.push_str(&format!("  %{i} = binary_op \"+\" %{lhs}, %{}\n", i - 299));
    }
    text.push_str("  return %598\n");
    let (bundle, dis) = compile(&text);
    assert!(bundle.function(0).frame_size > 256, "{dis}");
    assert!(dis.contains("r299"), "{dis}");
}

#[test]
fn every_function_kind_gets_its_flags() {
    use bytecode::FunctionFlags as F;
    let mut text = String::from("module \"t.js\" top_level=@0\n");
    let kinds = ["toplevel", "function", "arrow", "method", "class_constructor", "derived_constructor"];
    for (i, k) in kinds.iter().enumerate() {
        text.push_str(&format!(
            "function @{i} \"f{i}\"(\"a\") kind={k} sloppy parent=none length=1\n%BB0:\n  return undefined\n"
        ));
    }
    let (bundle, _) = compile(&text);
    let flags: Vec<F> = (0..kinds.len() as u32).map(|i| bundle.function(i).flags).collect();
    assert_eq!(flags[0], F::NONE);
    assert_eq!(flags[1], F::CONSTRUCTOR);
    assert_eq!(flags[2], F::ARROW);
    assert_eq!(flags[3], F::METHOD);
    assert_eq!(flags[4], F::CONSTRUCTOR | F::CLASS_CONSTRUCTOR);
    assert_eq!(flags[5], F::CONSTRUCTOR | F::CLASS_CONSTRUCTOR | F::DERIVED);
    assert_eq!(bundle.function(1).param_count, 1);
    assert_eq!(bundle.function(1).length, 1);
}

#[test]
fn top_level_is_function_zero() {
    let (bundle, _) = compile(
        r#"module "t.js" top_level=@1
function @0 "f"() kind=function sloppy parent=none length=0
%BB0:
  return 1
function @1 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = create_closure @0 undefined
  return %0
"#,
    );
    assert_eq!(bundle.string_units(bundle.function(0).name), Vec::<u16>::new());
    assert_eq!(String::from_utf16_lossy(&bundle.string_units(bundle.function(1).name)), "f");
}

struct TestIds;

impl super::lower::Ids for TestIds {
    fn atom(&mut self, atom: ir::Atom) -> u32 {
        atom.0
    }
    fn function(&self, func: ir::FuncId) -> u32 {
        func.0
    }
}

fn lir_of(text: &str) -> String {
    let module = ir::parse::parse_module(text).unwrap();
    let top = module.top_level.unwrap();
    super::lower::lower_function(&module, top, &mut TestIds).unwrap().dump()
}

#[test]
fn lir_splits_critical_edges_only() {
    // BB0 -> BB3 is critical (split into L1, right after BB0); BB2 -> BB3 is not (BB2 has a
    // single successor, so its move goes before its jump).
    let lir = lir_of(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1 : any
  cond_branch %0, %BB1, %BB3
%BB1:
  cond_branch %0, %BB2, %BB4
%BB2:
  branch %BB3
%BB3:
  %1 = phi [1, %BB0], [2, %BB2]
  return %1
%BB4:
  return %0
"#,
    );
    assert_eq!(
        lir,
        "L0: succs [2, 1]\n  load_param v0, 1\n  jmp_true 0, v0 -> L2\n  jmp 0 -> L1\n\
         L1: succs [4]\n  moves v1 <- Int(1)\n  jmp 0 -> L4\n\
         L2: succs [3, 5]\n  jmp_true 0, v0 -> L3\n  jmp 0 -> L5\n\
         L3: succs [4]\n  moves v1 <- Int(2)\n  jmp 0 -> L4\n\
         L4: succs []\n  ret v1\n\
         L5: succs []\n  ret v0\n",
        "{lir}"
    );
}

/// Compiles the Octane benchmark files through the whole pipeline and prints, per file, the
/// SSA values and the registers the backend needed (`cargo test -p compiler bench_register
/// -- --ignored --nocapture`).
#[test]
#[ignore]
fn bench_register_counts() {
    let dir = std::path::Path::new("/work/shared/bench/octane");
    let mut names: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
    names.sort();
    for path in names {
        if path.extension().is_none_or(|e| e != "js") {
            continue;
        }
        let source = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let opts = crate::irgen::IrGenOptions::default();
        let mut module = match crate::irgen::lower_script(&source, &name, &opts) {
            Ok(m) => m,
            Err(d) => {
                println!("{name}: irgen failed: {}", d[0].message);
                continue;
            }
        };
        if let Err(e) = ir::passes::run_pipeline(&mut module, ir::passes::OptLevel::O, true) {
            println!("{name}: passes failed: {e}");
            continue;
        }
        let t = std::time::Instant::now();
        let (bytes, stats) = match compile_module_with_stats(
            &mut module,
            &BackendOptions { debug_info: true, ..BackendOptions::default() },
        ) {
            Ok(r) => r,
            Err(e) => {
                println!("{name}: backend failed: {e}");
                continue;
            }
        };
        let elapsed = t.elapsed();
        if let Err(e) = Bundle::from_bytes(bytes.clone()) {
            println!("{name}: bundle rejected: {e}");
            continue;
        }
        let values: u32 = stats.iter().map(|s| s.ssa_values).sum();
        let frames: u32 = stats.iter().map(|s| s.frame_size).sum();
        let max_ratio = stats.iter().map(|s| s.frame_size).max().unwrap_or(0);
        let biggest = stats.iter().max_by_key(|s| s.ssa_values).unwrap();
        let kept: u32 = stats.iter().map(|s| s.phi_moves_kept).sum();
        let coalesced: u32 = stats.iter().map(|s| s.phi_moves_coalesced).sum();
        let args: u32 = stats.iter().map(|s| s.arg_moves_coalesced).sum();
        println!(
            "{name}: {} functions, {values} SSA values, {frames} registers in all frames (largest frame {max_ratio}); \
             biggest function {:?}: {} values in {} registers; phi moves {coalesced} coalesced / {kept} kept; \
             {args} argument moves avoided; {} bytes; backend {:?}",
            stats.len(),
            biggest.name,
            biggest.ssa_values,
            biggest.frame_size,
            bytes.len(),
            elapsed
        );
    }
}

/// Prints the disassembly of a JS file (`IRIS_DIS=path cargo test -p compiler dis_file --
/// --ignored --nocapture`), for looking at the backend's output.
#[test]
#[ignore]
fn dis_file() {
    let Ok(path) = std::env::var("IRIS_DIS") else { return };
    let source = std::fs::read_to_string(&path).unwrap();
    let mut module = crate::irgen::lower_script(&source, &path, &crate::irgen::IrGenOptions::default())
        .unwrap_or_else(|d| panic!("{}", d[0].message));
    ir::passes::run_pipeline(&mut module, ir::passes::OptLevel::O, true).unwrap();
    if std::env::var("IRIS_IR").is_ok() {
        println!("{}", ir::dump::dump_module(&module));
    }
    let bytes = compile_module(module, &BackendOptions::default()).unwrap();
    println!("{}", bytecode::disassemble(&Bundle::from_bytes(bytes).unwrap()));
}

#[test]
fn tests_of_empty_undefined_and_not_fold_into_branches() {
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1
  %1 = binary_op "===" %0, empty
  cond_branch %1, %BB1, %BB2
%BB1:
  return 1
%BB2:
  %2 = binary_op "!==" undefined, %0
  cond_branch %2, %BB3, %BB4
%BB3:
  return 2
%BB4:
  %3 = unary_op "!" %0
  cond_branch %3, %BB5, %BB6
%BB5:
  return 3
%BB6:
  return 4
"#,
    );
    let code = code_of(&dis, 0);
    assert_eq!(
        code.iter().map(|l| l.split(' ').next().unwrap()).collect::<Vec<_>>(),
        // Each test jumps away when its condition is false, falling through to the
        // block laid out next.
        vec![
            "load_param",
            "jmp_not_empty",
            "load_const_int",
            "ret",
            "jmp_undefined",
            "load_const_int",
            "ret",
            "jmp_true",
            "load_const_int",
            "ret",
            "load_const_int",
            "ret",
        ],
        "{dis}"
    );
}

#[test]
fn comparisons_fold_into_branches() {
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1
  %1 = load_param #2
  %2 = binary_op "<" %0, %1
  cond_branch %2, %BB1, %BB2
%BB1:
  return 1
%BB2:
  %3 = binary_op "!=" null, %0
  cond_branch %3, %BB3, %BB4
%BB3:
  return 2
%BB4:
  %4 = binary_op "===" %0, %1
  cond_branch %4, %BB5, %BB6
%BB5:
  return 3
%BB6:
  return 4
"#,
    );
    let code = code_of(&dis, 0);
    assert_eq!(
        code.iter().map(|l| l.split(' ').next().unwrap()).collect::<Vec<_>>(),
        // `<` jumps when false (`jmp_not_less`, which NaN takes); `!= null` tests both
        // nullish values at once; no comparison result is materialized.
        vec![
            "load_param",
            "load_param",
            "jmp_not_less",
            "load_const_int",
            "ret",
            "jmp_nullish",
            "load_const_int",
            "ret",
            "jmp_strict_neq",
            "load_const_int",
            "ret",
            "load_const_int",
            "ret",
        ],
        "{dis}"
    );
}

#[test]
fn a_comparison_that_may_run_code_is_not_moved_over_effects() {
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1
  %1 = load_param #2
  %2 = binary_op "<" %0, %1
  %3 = load_property %0, "x"
  cond_branch %2, %BB1, %BB2
%BB1:
  return %3
%BB2:
  return 4
"#,
    );
    let code = code_of(&dis, 0);
    let ops: Vec<&str> = code.iter().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(ops[..5], ["load_param", "load_param", "less", "get_by_id", "jmp_false"], "{dis}");
}

#[test]
fn sloppy_this_reads_no_parameter_register() {
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #0
  %1 = coerce_this_ns %0
  return %1
"#,
    );
    assert_eq!(code_of(&dis, 0), vec!["load_this_ns r0", "ret r0"], "{dis}");
}

#[test]
fn loop_literals_are_hoisted_after_start_generator() {
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=generator_inner sloppy parent=none length=0
%BB0:
  start_generator
  %0 = alloc_stack "r"
  branch %BB1
%BB1:
  %1 = phi [0, %BB0], [%3, %BB2]
  save_and_yield %1, %BB2
%BB2:
  %2 = resume_generator %0
  %3 = binary_op "+" %1, 7
  branch %BB1
"#,
    );
    let code = code_of(&dis, 0);
    assert_eq!(code[0], "start_generator", "{dis}");
    assert!(code[1].starts_with("load_const_int") && code[1].ends_with(", 7"), "{dis}");
    assert_eq!(code.iter().filter(|l| l.ends_with(", 7")).count(), 1, "{dis}");
}

/// `%1` only feeds the `++`: dropped. `%3` is read and stepped right after: one `post_dec`.
#[test]
fn to_numeric_feeding_a_step_is_dropped_or_fused_with_it() {
    let (_, dis) = compile(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1
  %1 = as_numeric %0
  %2 = unary_op "++" %1
  %3 = as_numeric %0
  %4 = unary_op "--" %3
  %5 = binary_op "+" %3, %4
  %6 = binary_op "+" %5, %2
  return %6
"#,
    );
    let code = code_of(&dis, 0);
    assert!(!code.iter().any(|l| l.starts_with("to_numeric")), "{dis}");
    assert!(code.contains(&"inc r1, r0".to_string()), "{dis}");
    assert_eq!(code.iter().filter(|l| l.starts_with("post_dec") && l.ends_with(", r0")).count(), 1, "{dis}");
}

#[test]
fn every_remaining_opcode_lowers_to_its_instruction() {
    let mut ops = String::new();
    for (i, op) in [
        "+",
        "-",
        "*",
        "/",
        "%",
        "**",
        "&",
        "|",
        "^",
        "<<",
        ">>",
        ">>>",
        "==",
        "!=",
        "===",
        "!==",
        "<",
        "<=",
        ">",
        ">=",
        "in",
        "instanceof",
    ]
    .iter()
    .enumerate()
    {
        ops.push_str(&format!("  %{} = binary_op \"{op}\" %1, %2\n", 100 + i));
    }
    for (i, op) in ["-", "~", "!", "typeof", "++", "--"].iter().enumerate() {
        ops.push_str(&format!("  %{} = unary_op \"{op}\" %1\n", 200 + i));
    }
    let text = format!(
        r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = arg_count
  %1 = load_param #1
  %2 = load_param #2
  %3 = get_new_target
  %4 = get_callee
  %5 = create_arguments
  %6 = get_global_object
{ops}  %7 = delete_property %1, "k"
  %8 = delete_property %1, %2
  %9 = alloc_object
  %10 = alloc_object null
  define_own_accessor #1 %4, undefined, %9, "acc"
  %11 = alloc_array #3
  store_own_index #2 %1, %11
  %12 = call_spread %4, %1, %11
  %13 = construct_spread %4, %4, %11
  %14 = get_home_object
  %15 = create_regexp "a+" "g"
  %16 = get_iterator %11
  %17 = iterator_next %16
  iterator_close #1 %16
  %18 = get_pname_list %1
  %19 = get_next_pname %18
  %20 = as_string %1
  %21 = to_property_key %1
  %22 = as_number %2
  %23 = as_numeric %2
  %24 = call %4, undefined, %0, %3, %5, %6, %10, %114, %115, %202, %203, %14
  debugger
  cond_branch %1, %BB1, %BB2
%BB1:
  throw %2
%BB2:
  cond_branch %2, %BB3, %BB4
%BB3:
  throw_error RangeError "bad"
%BB4:
  unreachable
"#
    );
    let (bundle, dis) = compile(&text);
    let code = code_of(&dis, 0);
    let has = |m: &str| code.iter().any(|l| l.split(' ').next() == Some(m));
    for m in [
        "load_arg_count",
        "get_new_target",
        "load_callee",
        "create_arguments",
        "get_global_object",
        "add",
        "sub",
        "mul",
        "div",
        "modulo",
        "exp",
        "bit_and",
        "bit_or",
        "bit_xor",
        "shl",
        "shr",
        "ushr",
        "eq",
        "neq",
        "strict_eq",
        "strict_neq",
        "less",
        "less_eq",
        "greater",
        "greater_eq",
        "is_in",
        "instance_of",
        "negate",
        "bit_not",
        "not",
        "type_of",
        "inc",
        "dec",
        "del_by_id",
        "del_by_val",
        "new_object",
        "new_object_with_proto",
        "put_own_getter_setter",
        "new_array",
        "put_own_by_index",
        "call_spread",
        "construct_spread",
        "load_home_object",
        "create_regexp",
        "get_iterator",
        "iterator_next",
        "iterator_close",
        "get_pname_list",
        "get_next_pname",
        "to_string",
        "to_property_key",
        "to_number",
        "to_numeric",
        "debugger",
        "throw",
        "throw_error",
    ] {
        assert!(has(m), "no {m} in\n{dis}");
    }
    assert!(bundle.function(0).frame_size < 18, "{dis}");
}
