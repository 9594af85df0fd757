//! 22.2 RegExp objects. Matching is done by `ecma::regexp` (Iris's backtracking engine,
//! which polls the runtime's interrupt flag while it matches), wrapped by [`Matcher`] (in
//! `object::regexp`). Subjects are matched in place, Latin-1 or UTF-16 as stored.

use super::{arg, rows, Builtin, Row};
use crate::gc::{CellKind, Gc};
use crate::object::regexp::{MatchError, MatchResult, Matcher};
use crate::object::shape::{ACCESSOR, CONFIGURABLE, DEFAULT_ATTRS, WRITABLE};
use crate::object::{iter_kind, IteratorObject, JsObject, Key, RegExpObject};
use crate::runtime::{Intrinsic, JsResult, ProtoSlots, Runtime};
use crate::string::StringBuilder;
use crate::value::Value;
use ecma::conv::string_ops;

/// This module's registration (see `Builtin`).
pub(crate) const BUILTIN: Builtin =
    Builtin { init, rows: ROWS, link, globals: &[("RegExp", Intrinsic::RegExp)], ..Builtin::NONE };

pub(crate) const ROWS: &[Row] = rows! {
    RegExp.[species] => super::array::species_getter, 0, getter;
    RegExp."escape" => escape, 1;
    RegExpPrototype."exec" => exec, 1;
    RegExpPrototype."test" => test, 1;
    RegExpPrototype."toString" => to_string, 0;
    RegExpPrototype."compile" => compile, 2;
    RegExpPrototype."flags" => flags_getter, 0, getter;
    RegExpPrototype."source" => source_getter, 0, getter;
    RegExpPrototype."global" => global_getter, 0, getter;
    RegExpPrototype."ignoreCase" => ignore_case_getter, 0, getter;
    RegExpPrototype."multiline" => multiline_getter, 0, getter;
    RegExpPrototype."dotAll" => dot_all_getter, 0, getter;
    RegExpPrototype."unicode" => unicode_getter, 0, getter;
    RegExpPrototype."unicodeSets" => unicode_sets_getter, 0, getter;
    RegExpPrototype."sticky" => sticky_getter, 0, getter;
    RegExpPrototype."hasIndices" => has_indices_getter, 0, getter;
    RegExpPrototype.[match_] => symbol_match, 1;
    RegExpPrototype.[match_all] => symbol_match_all, 1;
    RegExpPrototype.[replace] => symbol_replace, 2;
    RegExpPrototype.[search] => symbol_search, 1;
    RegExpPrototype.[split] => symbol_split, 2;
    RegExpStringIteratorPrototype."next" => string_iterator_next, 0;
};

/// 22.2.5.1 RegExp.escape(S): `S` as a pattern that matches it literally, also where a
/// pattern is pasted after `\0`, `\c` or a digit (a leading digit or letter is `\xHH`).
fn escape(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = arg(args, 0);
    if !s.is_string() {
        return Err(rt.throw_type_error("RegExp.escape requires a string"));
    }
    let units = rt.string_units(s);
    let mut out: Vec<u16> = Vec::with_capacity(units.len() * 2);
    let push_str = |out: &mut Vec<u16>, s: &str| out.extend(s.encode_utf16());
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        // A surrogate pair is one code point, and nothing in it is escaped.
        if (0xD800..0xDC00).contains(&u) && units.get(i + 1).is_some_and(|n| (0xDC00..0xE000).contains(n)) {
            out.extend_from_slice(&units[i..i + 2]);
            i += 2;
            continue;
        }
        i += 1;
        let ascii = (u < 128).then_some(u as u8 as char);
        match ascii {
            // 4.a. A leading decimal digit or ASCII letter.
            Some(c) if out.is_empty() && c.is_ascii_alphanumeric() => push_str(&mut out, &format!("\\x{u:02x}")),
            // EncodeForRegExpEscape 1: SyntaxCharacter and `/`.
            Some(c) if "^$\\.*+?()[]{}|/".contains(c) => {
                out.push(u16::from(b'\\'));
                out.push(u);
            }
            // 2: ControlEscape.
            Some('\t') => push_str(&mut out, "\\t"),
            Some('\n') => push_str(&mut out, "\\n"),
            Some('\u{0B}') => push_str(&mut out, "\\v"),
            Some('\u{0C}') => push_str(&mut out, "\\f"),
            Some('\r') => push_str(&mut out, "\\r"),
            // 3-5. Other punctuators, white space, line terminators and lone surrogates.
            _ if ascii.is_some_and(|c| ",-=<>#&!%:;@~'`\"".contains(c))
                || string_ops::is_whitespace(u)
                || string_ops::is_line_terminator(u)
                || (0xD800..0xE000).contains(&u) =>
            {
                match u <= 0xFF {
                    true => push_str(&mut out, &format!("\\x{u:02x}")),
                    false => push_str(&mut out, &format!("\\u{u:04x}")),
                }
            }
            _ => out.push(u),
        }
    }
    Ok(rt.new_string_units(&out))
}

/// Creates RegExp and RegExp.prototype.
pub(crate) fn init(rt: &mut Runtime) {
    let op = rt.intrinsic(Intrinsic::ObjectPrototype);
    let proto = rt.new_object(op);
    let c = rt.make_constructor("RegExp", regexp_constructor, 2, Some(proto));
    rt.set_intrinsic(Intrinsic::RegExpPrototype, Value::object(proto));
    rt.set_intrinsic(Intrinsic::RegExp, Value::object(c));
}

/// %RegExp.prototype.exec%, once the table has made it.
fn link(rt: &mut Runtime) {
    let exec = rt.intrinsic_prop(Intrinsic::RegExpPrototype, "exec");
    rt.set_intrinsic(Intrinsic::RegExpProtoExec, exec);
}

/// 22.2.3.1 RegExpAlloc(newTarget): an uninitialized RegExp with `lastIndex`.
fn regexp_alloc(rt: &mut Runtime, proto: Value) -> Gc<JsObject> {
    let shape = rt.root_shape(proto, CellKind::RegExp, 1);
    let r = RegExpObject {
        base: JsObject::new(CellKind::RegExp, shape),
        matcher: None,
        source: Value::UNDEFINED,
        flags: Value::UNDEFINED,
    };
    let o: Gc<JsObject> = rt.heap_mut().alloc_object(r, 1).cast();
    let key = Key::Name(rt.names.last_index);
    rt.define_data_raw(o, key, Value::number(0.0), WRITABLE);
    o
}

/// 22.2.3.3 RegExpInitialize(obj, pattern, flags).
fn regexp_initialize(rt: &mut Runtime, obj: Gc<JsObject>, pattern: Value, flags: Value) -> JsResult<Value> {
    let p = if pattern.is_undefined() { rt.names.empty.value() } else { rt.to_string(pattern)? };
    rt.root(p);
    let f = if flags.is_undefined() { rt.names.empty.value() } else { rt.to_string(flags)? };
    rt.root(f);
    let units = rt.string_units(p);
    let flag_units = rt.string_units(f);
    let matcher = rt.compiled_matcher(units, flag_units).map_err(|e| rt.throw_syntax_error(&e))?;
    let r = obj.cast::<RegExpObject>();
    let cell = rt.heap_mut().get_mut(r);
    cell.matcher = Some(matcher);
    cell.source = p;
    cell.flags = f;
    let key = Key::Name(rt.names.last_index);
    rt.set_or_throw(obj, key, Value::number(0.0))?;
    Ok(Value::object(obj))
}

/// `create_regexp` (RegExpCreate for literals).
pub(crate) fn regexp_create(rt: &mut Runtime, pattern: Value, flags: Value) -> JsResult<Value> {
    let mark = rt.handle_mark();
    let proto = rt.intrinsic(Intrinsic::RegExpPrototype);
    let o = regexp_alloc(rt, proto);
    rt.root(Value::object(o));
    let r = regexp_initialize(rt, o, pattern, flags);
    // The interpreter calls this for a regexp literal outside any native call (whose end
    // would release the handles).
    rt.release_handles(mark);
    r
}

fn as_regexp(rt: &Runtime, v: Value) -> Option<Gc<RegExpObject>> {
    if v.is_object() {
        rt.heap().downcast::<RegExpObject>(v.gc())
    } else {
        None
    }
}

/// 22.2.4.1 RegExp(pattern, flags).
fn regexp_constructor(rt: &mut Runtime, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (pattern, flags) = (arg(args, 0), arg(args, 1));
    let nt = rt.native_new_target();
    // 1-2. Let patternIsRegExp be ? IsRegExp(pattern).
    let pattern_is_regexp = if pattern.is_object() {
        let key = Key::Name(rt.symbols.match_);
        let m = rt.get(pattern.gc(), key, pattern)?;
        if m.is_undefined() {
            as_regexp(rt, pattern).is_some()
        } else {
            rt.to_boolean(m)
        }
    } else {
        false
    };
    let new_target = if nt.is_undefined() {
        let callee = rt.native_callee();
        // 4.b. If patternIsRegExp and flags is undefined, return pattern if its constructor is the callee.
        if pattern_is_regexp && flags.is_undefined() {
            let ck = Key::Name(rt.names.constructor);
            let pc = rt.get(pattern.gc(), ck, pattern)?;
            if pc == callee {
                return Ok(pattern);
            }
        }
        callee
    } else {
        nt
    };
    let (p, f) = if let Some(r) = as_regexp(rt, pattern) {
        let cell = rt.heap().get(r);
        let (src, fl) = (cell.source, cell.flags);
        (src, if flags.is_undefined() { fl } else { flags })
    } else if pattern_is_regexp {
        let sk = Key::Name(rt.names.source);
        let src = rt.get(pattern.gc(), sk, pattern)?;
        rt.root(src);
        let f = if flags.is_undefined() {
            let fk = Key::Name(rt.names.flags);
            rt.get(pattern.gc(), fk, pattern)?
        } else {
            flags
        };
        (src, f)
    } else {
        (pattern, flags)
    };
    rt.root(p);
    rt.root(f);
    let proto = rt.prototype_from_constructor(new_target, Intrinsic::RegExpPrototype)?;
    let o = regexp_alloc(rt, proto);
    rt.root(Value::object(o));
    regexp_initialize(rt, o, p, f)
}

/// thisRegExp for the builtin exec: the receiver must be an initialized RegExp.
fn this_regexp(rt: &mut Runtime, this: Value, what: &str) -> JsResult<Gc<RegExpObject>> {
    match as_regexp(rt, this) {
        Some(r) if rt.heap().get(r).matcher.is_some() => Ok(r),
        _ => Err(rt.throw_type_error(&format!("RegExp.prototype.{what} requires that 'this' be a RegExp object"))),
    }
}

/// 22.2.7.2 RegExpBuiltinExec(R, S).
fn builtin_exec(rt: &mut Runtime, r: Gc<RegExpObject>, s: Value) -> JsResult<Value> {
    let Some(m) = builtin_match(rt, r, s)? else { return Ok(Value::NULL) };
    let has_indices = rt.heap().get(r).matcher.as_ref().is_some_and(|m| m.has_indices);
    let (start, _) = m.groups[0].unwrap_or((0, 0));
    build_match_array(rt, r, s, &m, start, has_indices)
}

/// RegExpBuiltinExec(R, S) up to the match (steps 1-15: lastIndex read, matched and
/// updated): the match's spans, or None where the spec returns null. What is left, the
/// result array, no code can observe until it is returned.
fn builtin_match(rt: &mut Runtime, r: Gc<RegExpObject>, s: Value) -> JsResult<Option<MatchResult>> {
    let ro: Gc<JsObject> = r.cast();
    let li = read_last_index(rt, ro)?;
    let mut last_index = rt.to_length(li)?;
    let (global, sticky) = {
        let m = rt.heap().get(r).matcher.as_ref().map(|m| (m.global, m.sticky));
        m.unwrap_or((false, false))
    };
    if !global && !sticky {
        last_index = 0.0;
    }
    let flat = rt.flat(s);
    if last_index > rt.heap().str_view(flat).len() as f64 {
        if global || sticky {
            put_last_index(rt, ro, Value::number(0.0))?;
        }
        return Ok(None);
    }
    let Some(m) = rt.heap().get(r).matcher.clone() else { return Ok(None) };
    let result = run_matcher(rt, &m, flat, last_index as usize, false)?;
    let Some(m) = result else {
        if global || sticky {
            put_last_index(rt, ro, Value::number(0.0))?;
        }
        return Ok(None);
    };
    let (_, end) = m.groups[0].unwrap_or((0, 0));
    if global || sticky {
        put_last_index(rt, ro, Value::number(end as f64))?;
    }
    Ok(Some(m))
}

/// Runs matcher `m` on the flat string `flat` from `start`: exactly there for a
/// sticky regexp unless `scan`, else the leftmost match at or after it. The runtime's
/// interrupt stops it; a match that outgrows the matcher's stack is a RangeError.
fn run_matcher(
    rt: &mut Runtime,
    m: &Matcher,
    flat: Gc<crate::string::JsString>,
    start: usize,
    scan: bool,
) -> JsResult<Option<MatchResult>> {
    let flag = &*rt.host.interrupt;
    let interrupt = || flag.load(std::sync::atomic::Ordering::Relaxed);
    let result = m.exec(rt.heap().str_view(flat), start, scan, &interrupt);
    match result {
        Ok(m) => Ok(m),
        Err(MatchError::Interrupted) => Err(rt.throw_uncatchable(crate::runtime::ExceptionKind::Interrupted)),
        Err(MatchError::StackOverflow) => Err(rt.throw_range_error("Maximum call stack size exceeded")),
    }
}

/// The array RegExpBuiltinExec returns (steps 16-36).
fn build_match_array(
    rt: &mut Runtime,
    r: Gc<RegExpObject>,
    s: Value,
    m: &MatchResult,
    start: usize,
    has_indices: bool,
) -> JsResult<Value> {
    let mut items = Vec::with_capacity(m.groups.len());
    for g in &m.groups {
        let v = match g {
            Some((a, b)) => super::string::substring_value(rt, s, *a, *b),
            None => Value::UNDEFINED,
        };
        rt.root(v);
        items.push(v);
    }
    // A new array has none of these properties: they are added without a lookup.
    let a = rt.new_array_from(&items);
    rt.root(Value::object(a));
    let ik = Key::Name(rt.names.index);
    rt.add_property(a, ik, Value::number(start as f64), DEFAULT_ATTRS);
    let inp = Key::Name(rt.names.input);
    rt.add_property(a, inp, s, DEFAULT_ATTRS);
    let names: Vec<String> = rt.heap().get(r).matcher.as_ref().map(|mm| mm.names.clone()).unwrap_or_default();
    let groups = if names.is_empty() {
        Value::UNDEFINED
    } else {
        let g = rt.new_object(Value::NULL);
        rt.root(Value::object(g));
        for (i, n) in names.iter().enumerate() {
            if !n.is_empty() {
                let key = rt.key(n);
                rt.create_data_property_or_throw(g, key, items[i + 1])?;
            }
        }
        Value::object(g)
    };
    let gk = Key::Name(rt.names.groups);
    rt.add_property(a, gk, groups, DEFAULT_ATTRS);
    if has_indices {
        let mut pairs = Vec::new();
        for g in &m.groups {
            let v = match g {
                Some((x, y)) => Value::object(rt.new_array_from(&[Value::number(*x as f64), Value::number(*y as f64)])),
                None => Value::UNDEFINED,
            };
            rt.root(v);
            pairs.push(v);
        }
        let ind = rt.new_array_from(&pairs);
        rt.root(Value::object(ind));
        let gi = if names.is_empty() {
            Value::UNDEFINED
        } else {
            let g = rt.new_object(Value::NULL);
            for (i, n) in names.iter().enumerate() {
                if !n.is_empty() {
                    let key = rt.key(n);
                    rt.create_data_property_or_throw(g, key, pairs[i + 1])?;
                }
            }
            Value::object(g)
        };
        rt.create_data_property_or_throw(ind, gk, gi)?;
        let key = rt.key("indices");
        rt.create_data_property_or_throw(a, key, Value::object(ind))?;
    }
    Ok(Value::object(a))
}

/// What RegExpExec found: a result object, or the spans of a match by the built-in exec
/// whose result array nothing has seen (so it need not be made).
enum Found {
    Object(Value),
    Spans(MatchResult),
}

/// `v` if it is a RegExp on which the Gets of RegExp.prototype's methods (`exec`, `flags`
/// and the flag getters, `constructor` and `@@match` when a splitter is made) can only find
/// the built-ins, so that those methods may skip them: an initialized RegExp whose only own
/// property is `lastIndex`, whose prototype is the realm's %RegExp.prototype%, and whose
/// prototype still holds the original natives (accessors by their getters).
fn pristine(rt: &mut Runtime, v: Value) -> Option<Gc<RegExpObject>> {
    let r = as_regexp(rt, v)?;
    let proto = rt.intrinsic(Intrinsic::RegExpPrototype);
    let heap = rt.heap();
    let shape = heap.get(heap.get(r).base.shape);
    if shape.proto != proto || shape.property_count() != 1 || heap.get(r).matcher.is_none() {
        return None;
    }
    let proto: Gc<JsObject> = proto.gc();
    let proto_shape = heap.get(proto).shape;
    // A dictionary shape stays while its properties change; its version does not.
    let version = (proto_shape.addr(), heap.get(proto_shape).dict_version);
    let cached = rt.caches.regexp_proto_slots.as_ref().is_some_and(|c| c.version == version);
    if !cached {
        let mut slots = Vec::with_capacity(PRISTINE.len());
        for (key, _) in PRISTINE {
            let (index, attrs) = rt.heap().get(proto_shape).lookup(key(&rt.names, &rt.symbols))?;
            slots.push((index, attrs & ACCESSOR != 0));
        }
        let slots = slots.into_boxed_slice();
        rt.caches.regexp_proto_slots = Some(ProtoSlots { version, slots, checked: Box::default() });
    }
    let (heap, cache) = (&rt.heap, rt.caches.regexp_proto_slots.as_mut()?);
    // The slots hold what they held when last found pristine: the same natives (a native
    // function's code and an accessor pair's functions never change, and the cache is
    // cleared by every collection, which may reuse a cell). Comparing the values is a
    // third of the cost of checking the natives (regexp: 6% of the profile before).
    if cache.checked.len() == cache.slots.len()
        && cache.slots.iter().zip(&cache.checked).all(|(&(slot, _), &v)| heap.slot(proto, slot) == v)
    {
        return Some(r);
    }
    let mut values = Vec::with_capacity(PRISTINE.len());
    for (&(slot, accessor), (_, native)) in cache.slots.iter().zip(PRISTINE) {
        let held = heap.slot(proto, slot);
        let value = if accessor { heap.get(held.gc::<crate::object::AccessorPair>()).getter } else { held };
        if !value.is_object() {
            return None;
        }
        match heap.downcast::<crate::runtime::function::NativeFunction>(value.gc()) {
            Some(f) if std::ptr::fn_addr_eq(heap.get(f).func, native) => {}
            _ => return None,
        }
        values.push(held);
    }
    cache.checked = values.into_boxed_slice();
    Some(r)
}

type KeyOf = fn(&crate::runtime::names::Names, &crate::runtime::names::WellKnownSymbols) -> crate::object::PropKey;

/// How many properties `pristine` checks.
const PRISTINE_COUNT: usize = 12;

/// The properties `pristine` checks on %RegExp.prototype% and the natives they must hold.
const PRISTINE: [(KeyOf, crate::runtime::function::NativeFn); PRISTINE_COUNT] = [
    (|n, _| n.exec, exec),
    (|n, _| n.flags, flags_getter),
    (|n, _| n.has_indices, has_indices_getter),
    (|n, _| n.global, global_getter),
    (|n, _| n.ignore_case, ignore_case_getter),
    (|n, _| n.multiline, multiline_getter),
    (|n, _| n.dot_all, dot_all_getter),
    (|n, _| n.unicode, unicode_getter),
    (|n, _| n.unicode_sets, unicode_sets_getter),
    (|n, _| n.sticky, sticky_getter),
    (|n, _| n.constructor, regexp_constructor),
    (|_, s| s.match_, symbol_match),
];

/// 22.2.7.1 RegExpExec(R, S), steps 1-3: calls a user `exec` (its result checked), or
/// gives the RegExp for the built-in one.
fn user_exec(rt: &mut Runtime, r: Value, s: Value) -> JsResult<Result<Value, Gc<RegExpObject>>> {
    if let Some(rx) = pristine(rt, r) {
        return Ok(Err(rx));
    }
    let key = Key::Name(rt.names.exec);
    let exec_fn = rt.get(r.gc(), key, r)?;
    if rt.is_callable(exec_fn) && exec_fn != rt.regexp_builtin_exec() {
        let result = rt.call(exec_fn, r, &[s])?;
        if !result.is_object() && !result.is_null() {
            return Err(rt.throw_type_error("exec result must be an object or null"));
        }
        return Ok(Ok(result));
    }
    Ok(Err(this_regexp(rt, r, "exec")?))
}

/// 22.2.7.1 RegExpExec(R, S) for callers that can take a built-in match as spans: only
/// a RegExp without named groups or the `d` flag, whose result array would be read
/// through nothing but indices, `index` and `groups` (undefined).
fn regexp_exec_spans(rt: &mut Runtime, r: Value, s: Value) -> JsResult<Option<Found>> {
    let rx = match user_exec(rt, r, s)? {
        Ok(result) => return Ok((!result.is_null()).then_some(Found::Object(result))),
        Err(rx) => rx,
    };
    let plain = rt.heap().get(rx).matcher.as_ref().is_some_and(|m| m.names.is_empty() && !m.has_indices);
    if !plain {
        let result = builtin_exec(rt, rx, s)?;
        return Ok((!result.is_null()).then_some(Found::Object(result)));
    }
    Ok(builtin_match(rt, rx, s)?.map(Found::Spans))
}

/// 22.2.7.1 RegExpExec(R, S).
fn regexp_exec(rt: &mut Runtime, r: Value, s: Value) -> JsResult<Value> {
    match user_exec(rt, r, s)? {
        Ok(result) => Ok(result),
        Err(rx) => builtin_exec(rt, rx, s),
    }
}

impl Runtime {
    /// The original RegExp.prototype.exec of the current realm.
    fn regexp_builtin_exec(&mut self) -> Value {
        self.intrinsic(Intrinsic::RegExpProtoExec)
    }

    /// The matcher for `pattern` with `flags`, compiled once and shared by every RegExp
    /// object made from the same source while it stays in the cache.
    fn compiled_matcher(&mut self, pattern: Vec<u16>, flags: Vec<u16>) -> Result<std::rc::Rc<Matcher>, String> {
        /// Most matchers kept; the cache starts over when it is full.
        const CACHE_LIMIT: usize = 256;
        let key = (pattern.into_boxed_slice(), flags.into_boxed_slice());
        if let Some(m) = self.caches.regexp_cache.get(&key) {
            return Ok(m.clone());
        }
        let m = std::rc::Rc::new(Matcher::new(&key.0, &key.1)?);
        if self.caches.regexp_cache.len() >= CACHE_LIMIT {
            self.caches.regexp_cache.clear();
        }
        self.caches.regexp_cache.insert(key, m.clone());
        Ok(m)
    }
}

/// 22.2.6.2 RegExp.prototype.exec(string).
fn exec(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = this_regexp(rt, this, "exec")?;
    let s = rt.to_string(arg(args, 0))?;
    rt.root(s);
    builtin_exec(rt, r, s)
}

/// 22.2.6.16 RegExp.prototype.test(S).
fn test(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    if !this.is_object() {
        return Err(rt.throw_type_error("RegExp.prototype.test called on incompatible receiver"));
    }
    let s = rt.to_string(arg(args, 0))?;
    rt.root(s);
    let m = regexp_exec(rt, this, s)?;
    Ok(Value::boolean(!m.is_null()))
}

/// 22.2.6.17 RegExp.prototype.toString().
fn to_string(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    if !this.is_object() {
        return Err(rt.throw_type_error("RegExp.prototype.toString called on incompatible receiver"));
    }
    let sk = Key::Name(rt.names.source);
    let src = rt.get(this.gc(), sk, this)?;
    let p = rt.to_rust_string(src)?;
    let fk = Key::Name(rt.names.flags);
    let fl = rt.get(this.gc(), fk, this)?;
    let f = rt.to_rust_string(fl)?;
    Ok(rt.new_string(&format!("/{p}/{f}")))
}

/// B.2.4.1 RegExp.prototype.compile(pattern, flags).
fn compile(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = this_regexp(rt, this, "compile")?;
    let (pattern, flags) = (arg(args, 0), arg(args, 1));
    let (p, f) = if let Some(pr) = as_regexp(rt, pattern) {
        if !flags.is_undefined() {
            return Err(rt.throw_type_error("Cannot supply flags when constructing one RegExp from another"));
        }
        let c = rt.heap().get(pr);
        (c.source, c.flags)
    } else {
        (pattern, flags)
    };
    regexp_initialize(rt, r.cast(), p, f)
}

/// 22.2.6.4 get RegExp.prototype.flags.
fn flags_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    if !this.is_object() {
        return Err(rt.throw_type_error("RegExp.prototype.flags getter called on non-object"));
    }
    let names = rt.names;
    let mut out = String::new();
    for (name, ch) in [
        (names.has_indices, 'd'),
        (names.global, 'g'),
        (names.ignore_case, 'i'),
        (names.multiline, 'm'),
        (names.dot_all, 's'),
        (names.unicode, 'u'),
        (names.unicode_sets, 'v'),
        (names.sticky, 'y'),
    ] {
        let v = rt.get(this.gc(), Key::Name(name), this)?;
        if rt.to_boolean(v) {
            out.push(ch);
        }
    }
    Ok(rt.new_string(&out))
}

/// 22.2.6.13 get RegExp.prototype.source.
fn source_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    if let Some(r) = as_regexp(rt, this) {
        let escaped = rt.heap().get(r).matcher.as_ref().map(|m| m.escaped_source());
        if let Some(e) = escaped {
            return Ok(rt.new_string_units(&e));
        }
    }
    if this == rt.intrinsic(Intrinsic::RegExpPrototype) {
        return Ok(rt.new_string("(?:)"));
    }
    Err(rt.throw_type_error("RegExp.prototype.source getter called on incompatible receiver"))
}

fn flag_getter(rt: &mut Runtime, this: Value, ch: char, name: &str) -> JsResult<Value> {
    if let Some(r) = as_regexp(rt, this) {
        if let Some(m) = rt.heap().get(r).matcher.as_ref() {
            return Ok(Value::boolean(has_flag(m.flags(), ch)));
        }
    }
    if this == rt.intrinsic(Intrinsic::RegExpPrototype) {
        return Ok(Value::UNDEFINED);
    }
    Err(rt.throw_type_error(&format!("RegExp.prototype.{name} getter called on incompatible receiver")))
}

/// Whether `flags` has the flag written `ch`.
fn has_flag(flags: ecma::regexp::Flags, ch: char) -> bool {
    match ch {
        'd' => flags.has_indices,
        'g' => flags.global,
        'i' => flags.ignore_case,
        'm' => flags.multiline,
        's' => flags.dot_all,
        'u' => flags.unicode,
        'v' => flags.unicode_sets,
        'y' => flags.sticky,
        _ => false,
    }
}

fn global_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    flag_getter(rt, this, 'g', "global")
}
fn ignore_case_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    flag_getter(rt, this, 'i', "ignoreCase")
}
fn multiline_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    flag_getter(rt, this, 'm', "multiline")
}
fn dot_all_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    flag_getter(rt, this, 's', "dotAll")
}
fn unicode_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    flag_getter(rt, this, 'u', "unicode")
}
fn unicode_sets_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    flag_getter(rt, this, 'v', "unicodeSets")
}
fn sticky_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    flag_getter(rt, this, 'y', "sticky")
}
fn has_indices_getter(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    flag_getter(rt, this, 'd', "hasIndices")
}

/// The `flags` string of a RegExp-like object (through the `flags` getter, whose Gets
/// nothing can observe on a pristine RegExp).
fn flags_of(rt: &mut Runtime, r: Value) -> JsResult<String> {
    if let Some(rx) = pristine(rt, r) {
        if let Some(m) = rt.heap().get(rx).matcher.as_ref() {
            return Ok(m.flags().canonical());
        }
    }
    let fk = Key::Name(rt.names.flags);
    let f = rt.get(r.gc(), fk, r)?;
    rt.to_rust_string(f)
}

/// 22.2.7.3 AdvanceStringIndex(S, index, unicode).
fn advance(text: &[u16], index: f64, unicode: bool) -> f64 {
    if !unicode || index + 1.0 >= text.len() as f64 {
        return index + 1.0;
    }
    let cp = ecma::conv::string_ops::code_point_at(text, index as usize);
    index + cp.code_unit_count as f64
}

fn set_last_index(rt: &mut Runtime, r: Value, v: f64) -> JsResult<()> {
    put_last_index(rt, r.gc(), Value::number(v))
}

fn get_last_index(rt: &mut Runtime, r: Value) -> JsResult<f64> {
    let v = read_last_index(rt, r.gc())?;
    rt.to_length(v)
}

/// Get(`o`, "lastIndex").
fn read_last_index(rt: &mut Runtime, o: Gc<JsObject>) -> JsResult<Value> {
    match last_index_slot(rt, o) {
        Some(slot) => Ok(rt.heap().slot(o, slot)),
        None => {
            let lk = Key::Name(rt.names.last_index);
            rt.get(o, lk, Value::object(o))
        }
    }
}

/// Set(`o`, "lastIndex", `v`, true).
fn put_last_index(rt: &mut Runtime, o: Gc<JsObject>, v: Value) -> JsResult<()> {
    match last_index_slot(rt, o) {
        Some(slot) => {
            rt.heap_mut().set_slot(o, slot, v);
            Ok(())
        }
        None => {
            let lk = Key::Name(rt.names.last_index);
            rt.set_or_throw(o, lk, v)
        }
    }
}

/// Where RegExp `o` keeps `lastIndex` while it is a writable data property, found in its
/// shape once per shape: an own property of every RegExp (RegExpAlloc makes it
/// non-configurable), so reading or writing that slot is the whole of Get and Set. None:
/// `o` is not a RegExp or the property is read-only (the generic Set throws).
fn last_index_slot(rt: &mut Runtime, o: Gc<JsObject>) -> Option<u32> {
    let heap = rt.heap();
    if heap.object_kind(o) != CellKind::RegExp {
        return None;
    }
    let shape = heap.get(o).shape;
    let version = (shape.addr(), heap.get(shape).dict_version);
    match rt.caches.regexp_last_index {
        Some((v, slot)) if v == version => Some(slot),
        _ => {
            let (slot, attrs) = heap.get(shape).lookup(rt.names.last_index)?;
            if attrs & ACCESSOR != 0 || attrs & WRITABLE == 0 {
                return None;
            }
            rt.caches.regexp_last_index = Some((version, slot));
            Some(slot)
        }
    }
}

/// 22.2.6.8 RegExp.prototype[@@match](string).
fn symbol_match(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    if !this.is_object() {
        return Err(rt.throw_type_error("RegExp.prototype[Symbol.match] called on non-object"));
    }
    let s = rt.to_string(arg(args, 0))?;
    rt.root(s);
    let flags = flags_of(rt, this)?;
    if !flags.contains('g') {
        return regexp_exec(rt, this, s);
    }
    let full_unicode = flags.contains('u') || flags.contains('v');
    set_last_index(rt, this, 0.0)?;
    let a = rt.new_array(0);
    rt.root(Value::object(a));
    let text = rt.string_units(s);
    loop {
        let result = regexp_exec(rt, this, s)?;
        if result.is_null() {
            return Ok(if rt.heap().array_length(a) == 0 { Value::NULL } else { Value::object(a) });
        }
        let mark = rt.handle_mark();
        rt.root(result);
        let m = rt.get(result.gc(), Key::Index(0), result)?;
        let ms = rt.to_string(m)?;
        rt.array_push(a, ms)?;
        if rt.heap().string_len(ms) == 0 {
            let li = get_last_index(rt, this)?;
            set_last_index(rt, this, advance(&text, li, full_unicode))?;
        }
        rt.release_handles(mark);
    }
}

/// 22.2.6.9 RegExp.prototype[@@matchAll](string).
fn symbol_match_all(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    if !this.is_object() {
        return Err(rt.throw_type_error("RegExp.prototype[Symbol.matchAll] called on non-object"));
    }
    let s = rt.to_string(arg(args, 0))?;
    rt.root(s);
    let c = species_constructor(rt, this)?;
    let flags = flags_of(rt, this)?;
    let fv = rt.new_string(&flags);
    let matcher = rt.construct(c, &[this, fv], c)?;
    rt.root(matcher);
    let li = get_last_index(rt, this)?;
    set_last_index(rt, matcher, li)?;
    let state = rt.new_array_from(&[matcher, s]);
    let it = rt.new_builtin_iterator(Value::object(state), iter_kind::REGEXP_STRING);
    let mut bits = 0;
    if flags.contains('g') {
        bits |= 1;
    }
    if flags.contains('u') || flags.contains('v') {
        bits |= 2;
    }
    rt.heap_mut().get_mut(it.gc::<IteratorObject>()).index = bits;
    Ok(it)
}

/// 22.2.9.2.1 %RegExpStringIteratorPrototype%.next().
fn string_iterator_next(rt: &mut Runtime, this: Value, _args: &[Value]) -> JsResult<Value> {
    let ok = this.is_object()
        && rt.heap().object_kind(this.gc()) == CellKind::Iterator
        && rt.heap().get(this.gc::<IteratorObject>()).kind == iter_kind::REGEXP_STRING;
    if !ok {
        return Err(rt.throw_type_error("RegExp String Iterator next called on incompatible receiver"));
    }
    let it: Gc<IteratorObject> = this.gc();
    let (state, bits) = {
        let i = rt.heap().get(it);
        (i.target, i.index)
    };
    if state.is_undefined() {
        return Ok(rt.create_iter_result(Value::UNDEFINED, true));
    }
    let so: Gc<JsObject> = state.gc();
    let r = rt.heap().elements(so)[0];
    let s = rt.heap().elements(so)[1];
    let m = regexp_exec(rt, r, s)?;
    if m.is_null() {
        rt.heap_mut().get_mut(it).target = Value::UNDEFINED;
        return Ok(rt.create_iter_result(Value::UNDEFINED, true));
    }
    if bits & 1 == 0 {
        rt.heap_mut().get_mut(it).target = Value::UNDEFINED;
        return Ok(rt.create_iter_result(m, false));
    }
    rt.root(m);
    let first = rt.get(m.gc(), Key::Index(0), m)?;
    let ms = rt.to_string(first)?;
    if rt.heap().string_len(ms) == 0 {
        let text = rt.string_units(s);
        let li = get_last_index(rt, r)?;
        set_last_index(rt, r, advance(&text, li, bits & 2 != 0))?;
    }
    Ok(rt.create_iter_result(m, false))
}

/// 7.3.22 SpeciesConstructor(O, %RegExp%).
/// RegExp.prototype[@@split] (steps 10-25) for a pristine RegExp whose species is
/// %RegExp%. The splitter the spec makes (this regexp with `y`) is never seen by anything:
/// it is not made. Its sticky attempts at q, q + 1, ... find what one scan from q finds.
/// Appends a piece to the array of a `@@split`; whether the array reached the limit.
fn push_piece(rt: &mut Runtime, a: Gc<JsObject>, piece: Value, lim: u32) -> JsResult<bool> {
    rt.array_push(a, piece)?;
    Ok(rt.heap().array_length(a) == lim)
}

fn split_pristine(rt: &mut Runtime, m: &Matcher, s: Value, lim: u32) -> JsResult<Value> {
    let a = rt.new_array(0);
    rt.root(Value::object(a));
    if lim == 0 {
        return Ok(Value::object(a));
    }
    let flat = rt.flat(s);
    let size = rt.heap().str_view(flat).len();
    let unicode = m.flags().either_unicode();
    if size == 0 {
        if run_matcher(rt, m, flat, 0, false)?.is_none_or(|m| m.groups[0].is_none_or(|(start, _)| start != 0)) {
            rt.array_push(a, s)?;
        }
        return Ok(Value::object(a));
    }
    let advance = |rt: &Runtime, q: usize| {
        let view = rt.heap().str_view(flat);
        let pair = unicode
            && q + 1 < size
            && (0xD800..=0xDBFF).contains(&view.at(q))
            && (0xDC00..=0xDFFF).contains(&view.at(q + 1));
        q + if pair { 2 } else { 1 }
    };
    let (mut p, mut q) = (0usize, 0usize);
    while q < size {
        let Some(found) = run_matcher(rt, m, flat, q, true)? else { break };
        let Some((start, end)) = found.groups[0] else { break };
        if start >= size {
            break;
        }
        q = start;
        let e = end.min(size);
        if e == p {
            q = advance(rt, q);
            continue;
        }
        let t = super::string::substring_value(rt, s, p, q);
        if push_piece(rt, a, t, lim)? {
            return Ok(Value::object(a));
        }
        p = e;
        for g in &found.groups[1..] {
            let cap = match g {
                Some((x, y)) => super::string::substring_value(rt, s, *x, *y),
                None => Value::UNDEFINED,
            };
            if push_piece(rt, a, cap, lim)? {
                return Ok(Value::object(a));
            }
        }
        q = p;
    }
    let t = super::string::substring_value(rt, s, p, size);
    rt.array_push(a, t)?;
    Ok(Value::object(a))
}

fn species_constructor(rt: &mut Runtime, o: Value) -> JsResult<Value> {
    super::species_constructor(rt, o, Intrinsic::RegExp)
}

/// 22.2.6.11 RegExp.prototype[@@replace](string, replaceValue).
fn symbol_replace(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    if !this.is_object() {
        return Err(rt.throw_type_error("RegExp.prototype[Symbol.replace] called on non-object"));
    }
    let s = rt.to_string(arg(args, 0))?;
    rt.root(s);
    let text = rt.string_units(s);
    let mut replace_value = arg(args, 1);
    let functional = rt.is_callable(replace_value);
    if !functional {
        replace_value = rt.to_string(replace_value)?;
        rt.root(replace_value);
    }
    let flags = flags_of(rt, this)?;
    let global = flags.contains('g');
    let full_unicode = flags.contains('u') || flags.contains('v');
    if global {
        set_last_index(rt, this, 0.0)?;
    }
    // Steps 11-12 collect the results, steps 14-15 replace them. A built-in match with a
    // string replacement is replaced as soon as it is found: nothing between the two loops
    // could tell (no code runs), and a global replace over a long string then keeps no list
    // of matches. Once a result is kept (a function replacement, a user exec), every later
    // one is too, so that the replacements still go in order.
    let replacement_units = if functional { Vec::new() } else { rt.string_units(replace_value) };
    let mut acc = StringBuilder::new();
    let mut next_source = 0usize;
    let mut kept = Vec::new();
    while let Some(found) = regexp_exec_spans(rt, this, s)? {
        // Only a global replace reads the match back (step 11.c.ii).
        let empty = match &found {
            _ if !global => false,
            Found::Spans(m) => m.groups[0].is_none_or(|(a, b)| a == b),
            Found::Object(result) => {
                rt.root(*result);
                let m = rt.get(result.gc(), Key::Index(0), *result)?;
                let ms = rt.to_string(m)?;
                rt.heap().string_len(ms) == 0
            }
        };
        match found {
            Found::Spans(m) if !functional && kept.is_empty() => {
                let mark = rt.handle_mark();
                let (position, end) = m.groups[0].unwrap_or((0, 0));
                let captures = capture_values(rt, s, &m);
                let matched = &text[position..end];
                let replacement = super::string::get_substitution(
                    rt,
                    matched,
                    &text,
                    position,
                    &captures,
                    Value::UNDEFINED,
                    &replacement_units,
                )?;
                append_replacement(rt, &mut acc, &mut next_source, &text, position, end - position, &replacement)?;
                rt.release_handles(mark);
            }
            Found::Object(result) => {
                rt.root(result);
                kept.push(Found::Object(result));
            }
            found => kept.push(found),
        }
        if !global {
            break;
        }
        if empty {
            let li = get_last_index(rt, this)?;
            set_last_index(rt, this, advance(&text, li, full_unicode))?;
        }
    }
    for found in kept {
        let (matched, position, captures, mut named) = match found {
            Found::Spans(m) => {
                let (a, b) = m.groups[0].unwrap_or((0, 0));
                let matched = super::string::substring_value(rt, s, a, b);
                rt.root(matched);
                (matched, a, capture_values(rt, s, &m), Value::UNDEFINED)
            }
            Found::Object(result) => {
                let ro: Gc<JsObject> = result.gc();
                let n_caps = {
                    let l = super::array::length_of(rt, ro)?;
                    (l - 1.0).max(0.0) as usize
                };
                let m0 = rt.get(ro, Key::Index(0), result)?;
                let matched = rt.to_string(m0)?;
                rt.root(matched);
                let ik = Key::Name(rt.names.index);
                let pv = rt.get(ro, ik, result)?;
                let position = rt.to_integer_or_infinity(pv)?.clamp(0.0, text.len() as f64) as usize;
                let mut captures = Vec::with_capacity(n_caps);
                for n in 1..=n_caps {
                    let c = rt.get(ro, Key::Index(n as u32), result)?;
                    let c = if c.is_undefined() { c } else { rt.to_string(c)? };
                    rt.root(c);
                    captures.push(c);
                }
                let gk = Key::Name(rt.names.groups);
                let named = rt.get(ro, gk, result)?;
                (matched, position, captures, named)
            }
        };
        let match_len = rt.heap().string_len(matched);
        let replacement: Vec<u16> = if functional {
            let mut call_args = vec![matched];
            call_args.extend_from_slice(&captures);
            call_args.push(Value::number(position as f64));
            call_args.push(s);
            if !named.is_undefined() {
                call_args.push(named);
            }
            let r = rt.call(replace_value, Value::UNDEFINED, &call_args)?;
            let rs = rt.to_string(r)?;
            rt.string_units(rs)
        } else {
            if !named.is_undefined() {
                named = Value::object(rt.to_object(named)?);
                rt.root(named);
            }
            let mu = rt.string_units(matched);
            super::string::get_substitution(rt, &mu, &text, position, &captures, named, &replacement_units)?
        };
        append_replacement(rt, &mut acc, &mut next_source, &text, position, match_len, &replacement)?;
    }
    if next_source < text.len() {
        acc.push_units(&text[next_source..]);
    }
    if acc.too_long() {
        return Err(rt.throw_range_error("Invalid string length"));
    }
    Ok(Value::string(acc.finish(rt.heap_mut())))
}

/// The captures of a match as strings of `s` (undefined where a group did not take part),
/// rooted.
fn capture_values(rt: &mut Runtime, s: Value, m: &MatchResult) -> Vec<Value> {
    let mut captures = Vec::with_capacity(m.groups.len().saturating_sub(1));
    for g in m.groups.iter().skip(1) {
        let c = match *g {
            Some((a, b)) => super::string::substring_value(rt, s, a, b),
            None => Value::UNDEFINED,
        };
        rt.root(c);
        captures.push(c);
    }
    captures
}

/// Steps 15.m-n of RegExp.prototype[@@replace]: a match at `position` that does not go
/// back before the previous one takes the text since it, then its replacement. The
/// result may not outgrow the maximum string length: what would take it past is not
/// appended (so `acc` never holds more than that) and a RangeError is thrown.
fn append_replacement(
    rt: &mut Runtime,
    acc: &mut StringBuilder,
    next_source: &mut usize,
    text: &[u16],
    position: usize,
    match_len: usize,
    replacement: &[u16],
) -> JsResult<()> {
    if position >= *next_source {
        acc.push_units(&text[*next_source..position]);
        acc.push_units(replacement);
        *next_source = position + match_len;
        if acc.too_long() {
            return Err(rt.throw_range_error("Invalid string length"));
        }
    }
    Ok(())
}

/// 22.2.6.12 RegExp.prototype[@@search](string).
fn symbol_search(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    if !this.is_object() {
        return Err(rt.throw_type_error("RegExp.prototype[Symbol.search] called on non-object"));
    }
    let s = rt.to_string(arg(args, 0))?;
    rt.root(s);
    let lk = Key::Name(rt.names.last_index);
    let previous = rt.get(this.gc(), lk, this)?;
    rt.root(previous);
    if !rt.same_value(previous, Value::number(0.0)) {
        rt.set_or_throw(this.gc(), lk, Value::number(0.0))?;
    }
    let result = regexp_exec(rt, this, s)?;
    rt.root(result);
    let current = rt.get(this.gc(), lk, this)?;
    if !rt.same_value(current, previous) {
        rt.set_or_throw(this.gc(), lk, previous)?;
    }
    if result.is_null() {
        return Ok(Value::number(-1.0));
    }
    let ik = Key::Name(rt.names.index);
    rt.get(result.gc(), ik, result)
}

/// 22.2.6.14 RegExp.prototype[@@split](string, limit).
fn symbol_split(rt: &mut Runtime, this: Value, args: &[Value]) -> JsResult<Value> {
    if !this.is_object() {
        return Err(rt.throw_type_error("RegExp.prototype[Symbol.split] called on non-object"));
    }
    let s = rt.to_string(arg(args, 0))?;
    rt.root(s);
    let c = species_constructor(rt, this)?;
    if c == rt.intrinsic(Intrinsic::RegExp) {
        if let Some(m) = pristine(rt, this).and_then(|r| rt.heap().get(r).matcher.clone()) {
            // The splitter is made (step 10) before the limit is converted, which may
            // recompile `this`: the matcher is taken here.
            let limit = arg(args, 1);
            let lim = if limit.is_undefined() { u32::MAX } else { rt.to_uint32(limit)? };
            return split_pristine(rt, &m, s, lim);
        }
    }
    let flags = flags_of(rt, this)?;
    let unicode = flags.contains('u') || flags.contains('v');
    let new_flags = if flags.contains('y') { flags.clone() } else { format!("{flags}y") };
    let nf = rt.new_string(&new_flags);
    let splitter = rt.construct(c, &[this, nf], c)?;
    rt.root(splitter);
    let a = rt.new_array(0);
    rt.root(Value::object(a));
    let limit = arg(args, 1);
    let lim = if limit.is_undefined() { u32::MAX } else { rt.to_uint32(limit)? };
    if lim == 0 {
        return Ok(Value::object(a));
    }
    let text = rt.string_units(s);
    let size = text.len();
    if size == 0 {
        let z = regexp_exec(rt, splitter, s)?;
        if z.is_null() {
            rt.array_push(a, s)?;
        }
        return Ok(Value::object(a));
    }
    let (mut p, mut q) = (0usize, 0usize);
    while q < size {
        set_last_index(rt, splitter, q as f64)?;
        let z = regexp_exec(rt, splitter, s)?;
        if z.is_null() {
            q = advance(&text, q as f64, unicode) as usize;
            continue;
        }
        let mark = rt.handle_mark();
        rt.root(z);
        let e = get_last_index(rt, splitter)?.min(size as f64) as usize;
        if e == p {
            q = advance(&text, q as f64, unicode) as usize;
            rt.release_handles(mark);
            continue;
        }
        let t = super::string::substring_value(rt, s, p, q);
        if push_piece(rt, a, t, lim)? {
            return Ok(Value::object(a));
        }
        p = e;
        let zo: Gc<JsObject> = z.gc();
        let ncap = (super::array::length_of(rt, zo)? - 1.0).max(0.0) as u32;
        for i in 1..=ncap {
            let cap = rt.get(zo, Key::Index(i), z)?;
            if push_piece(rt, a, cap, lim)? {
                return Ok(Value::object(a));
            }
        }
        q = p;
        rt.release_handles(mark);
    }
    let t = super::string::substring_value(rt, s, p, size);
    rt.array_push(a, t)?;
    let _ = CONFIGURABLE;
    Ok(Value::object(a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::RuntimeOptions;

    fn matcher_of(rt: &Runtime, r: Value) -> std::rc::Rc<Matcher> {
        let r = r.gc::<JsObject>().cast::<RegExpObject>();
        rt.heap().get(r).matcher.clone().expect("initialized")
    }

    #[test]
    fn objects_from_the_same_source_share_one_compiled_matcher() {
        let mut rt = Runtime::new(RuntimeOptions::default());
        let (p, f, g) = (rt.new_string("a+b"), rt.new_string("g"), rt.new_string("i"));
        rt.root(p);
        rt.root(f);
        rt.root(g);
        let r1 = regexp_create(&mut rt, p, f).unwrap();
        rt.root(r1);
        let r2 = regexp_create(&mut rt, p, f).unwrap();
        rt.root(r2);
        let r3 = regexp_create(&mut rt, p, g).unwrap();
        assert_ne!(r1, r2, "each evaluation makes a new object");
        assert!(std::rc::Rc::ptr_eq(&matcher_of(&rt, r1), &matcher_of(&rt, r2)));
        assert!(!std::rc::Rc::ptr_eq(&matcher_of(&rt, r1), &matcher_of(&rt, r3)));
        assert!(matcher_of(&rt, r1).global && !matcher_of(&rt, r3).global);
    }
}
#[cfg(test)]
mod pristine_tests {
    use super::*;
    use crate::runtime::RuntimeOptions;

    #[test]
    fn a_new_regexp_is_pristine_until_its_prototype_changes() {
        let mut rt = Runtime::new(RuntimeOptions::default());
        let proto = rt.intrinsic(Intrinsic::RegExpPrototype);
        let o = regexp_alloc(&mut rt, proto);
        let p = rt.new_string("a");
        let f = rt.new_string("g");
        let r = regexp_initialize(&mut rt, o, p, f).unwrap();
        rt.root(r);
        assert!(pristine(&mut rt, r).is_some());
        // A getter replaced by another function: no longer.
        let proto_obj: Gc<JsObject> = proto.gc();
        let getter = rt.intrinsic_prop(Intrinsic::RegExpPrototype, "toString");
        let desc = crate::object::property::PropertyDescriptor::accessor(getter, Value::UNDEFINED, CONFIGURABLE);
        let key = Key::Name(rt.names.global);
        rt.define_own_property(proto_obj, key, &desc).unwrap();
        assert!(pristine(&mut rt, r).is_none());
    }
}
