//! Differential tests of lowering, register allocation and emission: random SSA functions
//! (arbitrary CFGs with loops, Phis, literals and calls) are run by a small HIR interpreter
//! and, once compiled, by a small bytecode interpreter; both must compute the same result.
//!
//! Values are numbers (booleans as 0/1, `undefined` as NaN), so every operation has one
//! obvious meaning at both levels. `call` is a fixed pure function of its callee and
//! arguments, which exercises the consecutive argument registers.

use bytecode::{Bundle, Inst};
use ir::cfg::Cfg;
use ir::domtree::DomTree;
use ir::{BinOp, Block, Function, FunctionKind, Imm, Literal, Module, Opcode, Value};

use super::{compile_module_with_stats, BackendOptions};

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// A call of this callee throws (the value `call_result` would have returned).
const THROWING_CALLEE: f64 = 13.0;

/// The pure function every `call` computes.
fn call_result(callee: f64, args: &[f64]) -> f64 {
    let mut acc = callee * 3.0 + args.len() as f64;
    for (i, &a) in args.iter().enumerate() {
        acc += a * (i as f64 + 2.0);
    }
    acc
}

fn literal_value(lit: Literal) -> f64 {
    match lit {
        Literal::Number(n) => n,
        Literal::Bool(b) => f64::from(u8::from(b)),
        _ => f64::NAN,
    }
}

fn truthy(x: f64) -> bool {
    x != 0.0 && !x.is_nan()
}

fn binop(op: BinOp, a: f64, b: f64) -> f64 {
    match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Lt => f64::from(u8::from(a < b)),
        _ => unreachable!("not generated"),
    }
}

/// Builds a random function; the module's top level is the only function.
fn random_module(rng: &mut Rng) -> Module {
    let mut module = Module::new("fuzz.js");
    let name = module.atom("");
    let mut f = Function::new(name, FunctionKind::TopLevel, false);
    let nblocks = 2 + rng.below(6);
    let blocks: Vec<Block> = (0..nblocks).map(|_| f.add_block()).collect();
    // Successors first, so dominators are known before values are chosen.
    let mut succs: Vec<Vec<Block>> = Vec::new();
    for i in 0..nblocks {
        let r = rng.below(10);
        succs.push(if i == nblocks - 1 || r < 2 {
            vec![]
        } else if r < 5 {
            vec![blocks[rng.below(nblocks)]]
        } else {
            let a = rng.below(nblocks);
            let mut b = rng.below(nblocks);
            if a == b {
                b = (b + 1) % nblocks;
            }
            vec![blocks[a], blocks[b]]
        });
    }
    // Temporary terminators (without operands) so the CFG can be computed.
    for (i, &b) in blocks.iter().enumerate() {
        let op = [Opcode::Return, Opcode::Branch, Opcode::CondBranch][succs[i].len()];
        let inst = f.make_inst(op, vec![], succs[i].clone(), Imm::None, ir::Loc::default());
        f.append_inst(b, inst);
    }
    let cfg = Cfg::new(&f);
    let dom = DomTree::new(&f, &cfg);
    for &b in &blocks {
        f.blocks[b].insts.clear();
    }

    // Values in RPO; every block may use the values of its dominators.
    let mut defined: Vec<(Block, Value)> = Vec::new();
    let mut phis: Vec<(Block, ir::Inst)> = Vec::new();
    let rpo: Vec<Block> = dom.rpo().to_vec();
    for &b in &rpo {
        let mut local: Vec<Value> = Vec::new();
        if b == f.entry() {
            for k in 1..=3 {
                let inst = f.make_inst(Opcode::LoadParam, vec![], vec![], Imm::Index(k), ir::Loc::default());
                f.append_inst(b, inst);
                local.push(f.result(inst));
            }
        } else if !cfg.preds(b).is_empty() {
            let n = rng.below(4);
            for _ in 0..n {
                let inst = f.make_inst(Opcode::Phi, vec![], vec![], Imm::None, ir::Loc::default());
                f.append_inst(b, inst);
                phis.push((b, inst));
                local.push(f.result(inst));
            }
        }
        let avail = |f: &mut Function, rng: &mut Rng, local: &[Value], defined: &[(Block, Value)]| -> Value {
            let from_dom: Vec<Value> =
                defined.iter().filter(|(db, _)| dom.strictly_dominates(*db, b)).map(|&(_, v)| v).collect();
            let total = local.len() + from_dom.len();
            if total == 0 || rng.chance(20) {
                let lit = match rng.below(5) {
                    0 => Literal::Undefined,
                    1 => Literal::Bool(rng.chance(50)),
                    2 => Literal::Number(0.5),
                    _ => Literal::Number(rng.below(5) as f64),
                };
                return f.literal(lit);
            }
            let k = rng.below(total);
            if k < local.len() {
                local[k]
            } else {
                from_dom[k - local.len()]
            }
        };
        for _ in 0..rng.below(6) {
            if rng.chance(25) {
                let callee = avail(&mut f, rng, &local, &defined);
                let undef = f.literal(Literal::Undefined);
                let mut args = vec![callee, undef];
                for _ in 0..rng.below(4) {
                    args.push(avail(&mut f, rng, &local, &defined));
                }
                let inst = f.make_inst(Opcode::Call, args, vec![], Imm::None, ir::Loc::default());
                f.append_inst(b, inst);
                local.push(f.result(inst));
            } else {
                let op = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Lt][rng.below(4)];
                let l = avail(&mut f, rng, &local, &defined);
                let r = avail(&mut f, rng, &local, &defined);
                let inst = f.make_inst(Opcode::BinaryOp, vec![l, r], vec![], Imm::BinOp(op), ir::Loc::default());
                f.append_inst(b, inst);
                local.push(f.result(inst));
            }
        }
        let i = blocks.iter().position(|&x| x == b).unwrap();
        let term = match succs[i].len() {
            0 => {
                let v = avail(&mut f, rng, &local, &defined);
                f.make_inst(Opcode::Return, vec![v], vec![], Imm::None, ir::Loc::default())
            }
            1 => f.make_inst(Opcode::Branch, vec![], succs[i].clone(), Imm::None, ir::Loc::default()),
            _ => {
                let v = avail(&mut f, rng, &local, &defined);
                f.make_inst(Opcode::CondBranch, vec![v], succs[i].clone(), Imm::None, ir::Loc::default())
            }
        };
        f.append_inst(b, term);
        defined.extend(local.iter().map(|&v| (b, v)));
    }
    // Unreachable blocks still need a terminator.
    for &b in &blocks {
        if f.blocks[b].insts.is_empty() {
            let u = f.literal(Literal::Undefined);
            let inst = f.make_inst(Opcode::Return, vec![u], vec![], Imm::None, ir::Loc::default());
            f.append_inst(b, inst);
        }
    }
    // Phi operands: any value available at the end of each predecessor.
    for (b, phi) in phis {
        let mut args = Vec::new();
        let mut targets = Vec::new();
        for &p in cfg.preds(b) {
            let cands: Vec<Value> = defined.iter().filter(|(db, _)| dom.dominates(*db, p)).map(|&(_, v)| v).collect();
            let v = if cands.is_empty() || rng.chance(15) {
                f.literal(Literal::Number(rng.below(3) as f64))
            } else {
                cands[rng.below(cands.len())]
            };
            args.push(v);
            targets.push(p);
        }
        f.insts[phi].args = args.into_iter().collect();
        f.insts[phi].targets = targets.into_iter().collect();
    }
    let id = module.add_function(f);
    module.top_level = Some(id);
    module
}

/// Runs the HIR; `None` when it takes more than `fuel` instructions.
fn run_hir(f: &Function, params: &[f64], mut fuel: u32) -> Option<f64> {
    let mut env: hashbrown::HashMap<Value, f64> = hashbrown::HashMap::new();
    let get = |env: &hashbrown::HashMap<Value, f64>, v: Value| match f.as_literal(v) {
        Some(lit) => literal_value(lit),
        None => env[&v],
    };
    let mut block = f.entry();
    let mut pred: Option<Block> = None;
    let mut handlers: Vec<Block> = Vec::new();
    let mut exception = f64::NAN;
    'blocks: loop {
        let insts = &f.blocks[block].insts;
        // Phis read simultaneously.
        let mut updates = Vec::new();
        for &i in insts {
            let d = &f.insts[i];
            if d.opcode != Opcode::Phi {
                break;
            }
            let k = d.targets.iter().position(|&t| Some(t) == pred)?;
            updates.push((f.result(i), get(&env, d.args[k])));
        }
        env.extend(updates);
        for &i in insts {
            fuel = fuel.checked_sub(1)?;
            let d = &f.insts[i];
            match (d.opcode, d.imm) {
                (Opcode::Phi, _) => {}
                (Opcode::LoadParam, Imm::Index(k)) => {
                    env.insert(f.result(i), params.get(k as usize - 1).copied().unwrap_or(f64::NAN));
                }
                (Opcode::BinaryOp, Imm::BinOp(op)) => {
                    let r = binop(op, get(&env, d.args[0]), get(&env, d.args[1]));
                    env.insert(f.result(i), r);
                }
                (Opcode::Call, _) => {
                    let args: Vec<f64> = d.args[2..].iter().map(|&a| get(&env, a)).collect();
                    let callee = get(&env, d.args[0]);
                    if callee == THROWING_CALLEE {
                        exception = call_result(callee, &args);
                        let h = handlers.pop()?;
                        pred = Some(block);
                        block = h;
                        continue 'blocks;
                    }
                    env.insert(f.result(i), call_result(callee, &args));
                }
                (Opcode::TryStart, _) => {
                    handlers.push(d.targets[1]);
                    pred = Some(block);
                    block = d.targets[0];
                }
                (Opcode::TryEnd, _) => {
                    handlers.pop();
                    pred = Some(block);
                    block = d.targets[0];
                }
                (Opcode::Catch, _) => {
                    env.insert(f.result(i), exception);
                }
                (Opcode::Return, _) => return Some(get(&env, d.args[0])),
                (Opcode::Branch, _) => {
                    pred = Some(block);
                    block = d.targets[0];
                }
                (Opcode::CondBranch, _) => {
                    pred = Some(block);
                    block = if truthy(get(&env, d.args[0])) { d.targets[0] } else { d.targets[1] };
                }
                (op, _) => unreachable!("not generated: {op}"),
            }
        }
    }
}

/// Runs function 0 of the bundle with the subset of opcodes the generator produces.
fn run_bytecode(bundle: &Bundle, params: &[f64]) -> Result<f64, String> {
    let header = bundle.function(0);
    let code = bundle.code(0);
    let mut regs = vec![f64::from_bits(0x7ff8_dead_beef_0000); header.frame_size as usize];
    let mut pc = 0usize;
    let mut exception = f64::NAN;
    for _ in 0..1_000_000 {
        let (inst, len) = Inst::decode(code, pc).map_err(|e| e.to_string())?;
        let mut next = pc + len;
        let r = |x: u32| x as usize;
        match inst {
            Inst::Mov { dst, src } => regs[r(dst)] = regs[r(src)],
            Inst::LoadConstInt { dst, value } => regs[r(dst)] = f64::from(value),
            Inst::LoadConstDouble { dst, value } => regs[r(dst)] = value,
            Inst::LoadConstUndefined { dst } => regs[r(dst)] = f64::NAN,
            Inst::LoadConstTrue { dst } => regs[r(dst)] = 1.0,
            Inst::LoadConstFalse { dst } => regs[r(dst)] = 0.0,
            Inst::LoadParam { dst, index } => {
                regs[r(dst)] = params.get(index as usize - 1).copied().unwrap_or(f64::NAN)
            }
            Inst::Add { dst, lhs, rhs } | Inst::AddN { dst, lhs, rhs } => regs[r(dst)] = regs[r(lhs)] + regs[r(rhs)],
            Inst::Sub { dst, lhs, rhs } | Inst::SubN { dst, lhs, rhs } => regs[r(dst)] = regs[r(lhs)] - regs[r(rhs)],
            Inst::Mul { dst, lhs, rhs } | Inst::MulN { dst, lhs, rhs } => regs[r(dst)] = regs[r(lhs)] * regs[r(rhs)],
            Inst::Less { dst, lhs, rhs } | Inst::LessN { dst, lhs, rhs } => {
                regs[r(dst)] = f64::from(u8::from(regs[r(lhs)] < regs[r(rhs)]))
            }
            Inst::Call { dst, callee, first, argc } => {
                let args: Vec<f64> = (1..argc).map(|k| regs[r(first + k)]).collect();
                let result = call_result(regs[r(callee)], &args);
                if regs[r(callee)] == THROWING_CALLEE {
                    let h = bundle
                        .handlers(0)
                        .into_iter()
                        .find(|h| h.start as usize <= pc && pc < h.end as usize)
                        .ok_or("uncaught exception")?;
                    exception = result;
                    pc = h.target as usize;
                    continue;
                }
                // A callee may use every register from `first` up as its own frame.
                for reg in regs.iter_mut().skip(r(first)) {
                    *reg = f64::from_bits(0x7ff8_0bad_0bad_0000);
                }
                regs[r(dst)] = result;
            }
            Inst::Jmp { off } => next = (pc as i64 + i64::from(off)) as usize,
            Inst::JmpTrue { off, cond } => {
                if truthy(regs[r(cond)]) {
                    next = (pc as i64 + i64::from(off)) as usize;
                }
            }
            Inst::JmpFalse { off, cond } => {
                if !truthy(regs[r(cond)]) {
                    next = (pc as i64 + i64::from(off)) as usize;
                }
            }
            Inst::JmpLess { off, lhs, rhs } => {
                if regs[r(lhs)] < regs[r(rhs)] {
                    next = (pc as i64 + i64::from(off)) as usize;
                }
            }
            Inst::JmpNotLess { off, lhs, rhs } => {
                // Not less: also taken when either side is NaN.
                if regs[r(lhs)].partial_cmp(&regs[r(rhs)]) != Some(std::cmp::Ordering::Less) {
                    next = (pc as i64 + i64::from(off)) as usize;
                }
            }
            Inst::Ret { value } => return Ok(regs[r(value)]),
            Inst::RetUndefined {} => return Ok(f64::NAN),
            Inst::Catch { dst } => regs[r(dst)] = exception,
            other => return Err(format!("unexpected instruction {other}")),
        }
        pc = next;
    }
    Err("bytecode ran out of fuel while the HIR finished".to_string())
}

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b
}

#[test]
fn random_functions_compute_the_same_as_their_hir() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut finished = 0;
    for case in 0..10_000 {
        let mut module = random_module(&mut rng);
        let text = ir::dump::dump_module(&module);
        let (bytes, _) = compile_module_with_stats(&mut module, &BackendOptions::default())
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        let bundle = Bundle::from_bytes(bytes).unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        let f = &module.functions[module.top_level.unwrap()];
        for params in [[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]] {
            let Some(want) = run_hir(f, &params, 400) else { continue };
            finished += 1;
            let got = run_bytecode(&bundle, &params)
                .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}\n{}", bytecode::disassemble(&bundle)));
            assert!(
                same(want, got),
                "case {case} with {params:?}: HIR gives {want}, bytecode {got}\n{text}\n{}",
                bytecode::disassemble(&bundle)
            );
        }
    }
    assert!(finished > 5000, "too few runs finished: {finished}");
}

/// Runs hand-written HIR at both levels with parameter `n`.
fn differential(text: &str, params: &[f64]) -> (f64, f64, String) {
    let mut module = ir::parse::parse_module(text).unwrap();
    let (bytes, _) = compile_module_with_stats(&mut module, &BackendOptions::default()).unwrap();
    let bundle = Bundle::from_bytes(bytes).unwrap();
    let dis = bytecode::disassemble(&bundle);
    let want = run_hir(&module.functions[module.top_level.unwrap()], params, 10_000).expect("HIR finishes");
    let got = run_bytecode(&bundle, params).unwrap_or_else(|e| panic!("{e}\n{dis}"));
    (want, got, dis)
}

#[test]
fn handler_reads_a_phi_written_at_the_end_of_its_try_region() {
    // for (i = 0; i < n; ) { try { t = i + 1; f = i + 10; f(); i = t; } catch { i = i + 100 } }
    // The back edge from inside the region (`try_end`) rewrites the loop phi, but until then
    // the handler may still need the old value: the phi must stay live throughout the body,
    // so `t` cannot be coalesced into it.
    let text = r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1
  branch %BB1
%BB1:
  %1 = phi [0, %BB0], [%3, %BB3], [%8, %BB4]
  %2 = binary_op "<" %1, %0
  cond_branch %2, %BB2, %BB5
%BB2:
  try_start %BB3, %BB4
%BB3:
  %3 = binary_op "+" %1, 1
  %4 = binary_op "+" %1, 10
  %5 = call %4, undefined, %3
  try_end %BB1
%BB4:
  %7 = catch
  %8 = binary_op "+" %1, 100
  branch %BB1
%BB5:
  return %1
"#;
    let (want, got, dis) = differential(text, &[5.0]);
    assert_eq!(want, 103.0);
    assert_eq!(got, want, "{dis}");
}

#[test]
fn handler_reads_values_defined_before_the_try() {
    // x = n * 2; try { y = x + 1 (x dead afterwards on the normal path); throw } catch { x }
    let text = r#"module "t.js" top_level=@0
function @0 ""() kind=toplevel sloppy parent=none length=0
%BB0:
  %0 = load_param #1
  %1 = binary_op "*" %0, 2
  try_start %BB1, %BB3
%BB1:
  %2 = binary_op "+" %1, 1
  %3 = binary_op "*" %2, %2
  %4 = call 13, undefined, %3
  try_end %BB2
%BB2:
  return %4
%BB3:
  %5 = catch
  %6 = binary_op "+" %1, %5
  return %6
"#;
    let (want, got, dis) = differential(text, &[5.0]);
    assert_eq!(want, 10.0 + 13.0 * 3.0 + 1.0 + 121.0 * 2.0);
    assert_eq!(got, want, "{dis}");
}
