//! Builtins: realm creation and the builtin registry.
//!
//! Every builtin function property is one row of a module's `ROWS` table (the table
//! pattern of STYLE.md, as for opcodes): where it goes, its name (a string or a well-known
//! symbol), its Rust function, its `length`, and whether it is a method, a getter or a
//! setter. `create_realm` builds the intrinsic objects in dependency order; an object's
//! rows are installed when something first looks at its own properties:
//!
//! ```text
//!  create_realm ─▶ %Object.prototype%, %Function.prototype%, shapes, constructors
//!               ─▶ the targets of every module's ROWS flagged LAZY_BUILTINS
//!               ─▶ links (which install the rows of the objects they read)
//!  install_globals ─▶ global object properties (constructors, Math, JSON, print, ...)
//!  own_lookup, own_keys_raw, preventExtensions of a flagged object ─▶ install_builtins
//! ```
//!
//! Builtins follow the specification's steps, numbered in comments.

pub mod array;
pub mod array_buffer;
pub mod array_from_async;
pub mod async_function;
pub mod async_generator;
pub mod async_iteration;
pub mod atomics;
pub mod bigint;
pub mod boolean;
pub mod collections;
pub mod console;
pub mod data_view;
pub mod date;
pub mod disposable_stack;
pub mod error;
pub mod function;
pub mod global;
pub mod iterator;
pub mod iterator_helpers;
pub mod json;
pub mod math;
pub mod modules;
pub mod number;
pub mod object;
pub mod promise;
pub mod promise_combinators;
pub mod proxy;
pub mod reflect;
pub mod regexp;
pub mod shared_array_buffer;
pub mod string;
pub mod symbol;
pub mod test262;
pub mod typed_array;
pub mod weak_refs;

use crate::gc::{CellKind, Gc};
use crate::object::property::IMMUTABLE_PROTO;
use crate::object::shape::{PropKey, Shape, ACCESSOR, BUILTIN_TABLE, CONFIGURABLE, DICTIONARY, ENUMERABLE, WRITABLE};
use crate::object::{JsObject, Key, IS_GLOBAL, LAZY_BUILTINS};
use crate::runtime::function::{NativeFn, NativeFunction};
use crate::runtime::{Hooks, Intrinsic, JsResult, Realm, RealmShapes, Runtime, RuntimeOptions, WellKnownSymbols};
use crate::value::Value;

/// The builtins the runtime core and the interpreter call.
static HOOKS: Hooks = Hooks {
    regexp_create: regexp::regexp_create,
    async_function_start: async_function::async_function_start,
    async_generator_start: async_generator::async_generator_start,
    mark_async_yield: async_generator::mark_async_yield,
    get_async_iterator: async_iteration::get_async_iterator,
    new_dispose_capability: disposable_stack::new_dispose_capability,
    add_disposable_resource: disposable_stack::add_disposable_resource,
    dispose_resources: disposable_stack::dispose_resources,
    inspect: console::inspect_quoted,
    finalization_cleanup: weak_refs::cleanup_job,
    settle_async_waits: atomics::settle_async_waits,
    import_meta: modules::import_meta,
    dynamic_import: modules::dynamic_import,
    evaluate_sync: modules::evaluate_sync,
    direct_eval: global::direct_eval,
    install_builtins,
};

impl Runtime {
    /// A runtime with one realm whose global object has every builtin.
    pub fn new(options: RuntimeOptions) -> Runtime {
        let mut rt = Runtime::with_hooks(options, &HOOKS);
        let realm = create_realm(&mut rt);
        rt.realms.push(realm);
        install_globals(&mut rt, 0);
        rt
    }

    /// Defines `$262` and `print` on the global object of the current realm.
    pub fn install_test262_host(&mut self) {
        let realm = self.realm;
        test262::install(self, realm);
    }
}

/// A builtin property name.
#[derive(Clone, Copy)]
pub enum Name {
    /// A string name.
    S(&'static str),
    /// A well-known symbol.
    Sym(fn(&WellKnownSymbols) -> PropKey),
}

/// What a row defines.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// A method: writable, configurable, not enumerable.
    Method,
    /// A getter (the accessor's setter is undefined unless a `Setter` row follows).
    Getter,
    /// A setter added to the accessor of the same name.
    Setter,
    /// A method that is not writable nor configurable (e.g. `Function.prototype[@@hasInstance]`).
    Frozen,
}

/// One builtin function property.
#[derive(Clone, Copy)]
pub struct Row {
    /// The object it is installed on.
    pub on: Intrinsic,
    /// The property name.
    pub name: Name,
    /// The implementation.
    pub func: NativeFn,
    /// The function's `length`.
    pub length: u8,
    /// Method, getter or setter.
    pub kind: RowKind,
}

/// Shorthand for table rows.
macro_rules! rows {
    ($($on:ident . $name:tt => $func:path, $len:expr $(, $kind:ident)?;)*) => {
        &[$( $crate::builtins::Row {
            on: $crate::runtime::Intrinsic::$on,
            name: rows!(@name $name),
            func: $func,
            length: $len,
            kind: rows!(@kind $($kind)?),
        }, )*]
    };
    (@name [$sym:ident]) => { $crate::builtins::Name::Sym(|s| s.$sym) };
    (@name $s:literal) => { $crate::builtins::Name::S($s) };
    (@kind) => { $crate::builtins::RowKind::Method };
    (@kind getter) => { $crate::builtins::RowKind::Getter };
    (@kind setter) => { $crate::builtins::RowKind::Setter };
    (@kind frozen) => { $crate::builtins::RowKind::Frozen };
}
pub(crate) use rows;

/// A builtin module's registration: everything `create_realm` and `install_globals` do for
/// it. Adding a builtin is its module's `BUILTIN` and one entry in `BUILTINS` (plus, for the
/// objects it makes, their `Intrinsic` names: a realm's slots, shared with the core).
#[derive(Clone, Copy)]
pub(crate) struct Builtin {
    /// Makes the module's prototypes and constructors in a new realm, in `BUILTINS` order (a
    /// module may use the intrinsics of the modules before it).
    pub init: fn(&mut Runtime),
    /// The module's function properties, installed on intrinsics after every `init`.
    pub rows: &'static [Row],
    /// Runs once every module's `init` has: what links the modules' objects. A link that
    /// reads a row's function makes the rows of its object then: prefer `installed`.
    pub link: fn(&mut Runtime),
    /// Runs once the rows of an intrinsic object are installed (`install_builtins`), with
    /// that intrinsic: intrinsics that are its functions, aliases of them.
    pub installed: fn(&mut Runtime, Intrinsic),
    /// The module's intrinsics that are global bindings (writable, configurable).
    pub globals: &'static [(&'static str, Intrinsic)],
    /// Defines the module's other global bindings (namespace objects, global functions) on
    /// a realm's global object.
    pub install: fn(&mut Runtime, Gc<JsObject>),
}

impl Builtin {
    /// A registration that does nothing (the base of the modules' `BUILTIN`s).
    pub(crate) const NONE: Builtin =
        Builtin { init: |_| {}, rows: &[], link: |_| {}, installed: |_, _| {}, globals: &[], install: |_, _| {} };
}

/// Every builtin module, in the order their steps run.
const BUILTINS: &[Builtin] = &[
    object::BUILTIN,
    function::BUILTIN,
    array::BUILTIN,
    string::BUILTIN,
    number::BUILTIN,
    boolean::BUILTIN,
    symbol::BUILTIN,
    bigint::BUILTIN,
    math::BUILTIN,
    error::BUILTIN,
    json::BUILTIN,
    date::BUILTIN,
    iterator::BUILTIN,
    iterator_helpers::BUILTIN,
    async_generator::BUILTIN,
    async_function::BUILTIN,
    regexp::BUILTIN,
    collections::BUILTIN,
    weak_refs::BUILTIN,
    disposable_stack::BUILTIN,
    array_buffer::BUILTIN,
    shared_array_buffer::BUILTIN,
    typed_array::BUILTIN,
    typed_array::methods::BUILTIN,
    typed_array::base64::BUILTIN,
    data_view::BUILTIN,
    atomics::BUILTIN,
    promise::BUILTIN,
    proxy::BUILTIN,
    reflect::BUILTIN,
    global::BUILTIN,
    console::BUILTIN,
];

/// Argument `i`, or undefined.
#[inline(always)]
pub(crate) fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::UNDEFINED)
}

/// 7.3.22 SpeciesConstructor(O, defaultConstructor): `O.constructor[Symbol.species]`, or
/// the realm's `default` when either is undefined (or the species is null).
pub(crate) fn species_constructor(rt: &mut Runtime, o: Value, default: Intrinsic) -> JsResult<Value> {
    let default = rt.intrinsic(default);
    let ck = Key::Name(rt.names.constructor);
    let c = rt.get(o.gc(), ck, o)?;
    if c.is_undefined() {
        return Ok(default);
    }
    if !c.is_object() {
        return Err(rt.throw_type_error("object.constructor is not an object"));
    }
    let sk = Key::Name(rt.symbols.species);
    let s = rt.get(c.gc(), sk, c)?;
    if s.is_nullish() {
        return Ok(default);
    }
    if rt.is_constructor(s) {
        return Ok(s);
    }
    Err(rt.throw_type_error("object.constructor[Symbol.species] is not a constructor"))
}

impl Runtime {
    /// The key of a row name.
    pub(crate) fn row_key(&mut self, name: Name) -> Key {
        match name {
            Name::S(s) => self.key(s),
            Name::Sym(f) => Key::Name(f(&self.symbols)),
        }
    }

    /// The `name` value of a builtin function for a row name (symbols: "[desc]").
    fn row_function_name(&mut self, name: Name, prefix: &str) -> Value {
        match name {
            Name::S(s) => self.new_string(&format!("{prefix}{s}")),
            Name::Sym(f) => {
                let k = f(&self.symbols);
                let d = self.heap.get(k.value().gc::<crate::object::Symbol>()).description;
                let desc = self.string_to_rust(d);
                self.new_string(&format!("{prefix}[{desc}]"))
            }
        }
    }

    /// A new native function object.
    pub(crate) fn new_native_function(
        &mut self,
        name: Value,
        func: NativeFn,
        length: u32,
        constructor: bool,
    ) -> Gc<JsObject> {
        let shape = self.realm().shapes.native_function;
        let realm = self.realm;
        let nf = NativeFunction {
            base: JsObject::new(CellKind::NativeFunction, shape),
            func,
            data: Value::UNDEFINED,
            realm,
            constructor,
        };
        let f = self.heap.alloc_object(nf, 2);
        let obj: Gc<JsObject> = f.cast();
        let s = self.heap.inline_slots_mut(obj);
        s[0] = Value::number(length as f64);
        s[1] = name;
        obj
    }

    /// A new native function named by a Rust string.
    pub(crate) fn new_native(&mut self, name: &str, func: NativeFn, length: u32) -> Gc<JsObject> {
        let n = self.new_string(name);
        self.new_native_function(n, func, length, false)
    }

    /// Defines a method-like data property (writable, configurable, not enumerable).
    pub(crate) fn define_method(&mut self, obj: Gc<JsObject>, name: &str, func: NativeFn, length: u32) -> Gc<JsObject> {
        let f = self.new_native(name, func, length);
        let key = self.key(name);
        self.define_data_raw(obj, key, Value::object(f), WRITABLE | CONFIGURABLE);
        f
    }

    /// Defines a data property.
    pub(crate) fn define_value(&mut self, obj: Gc<JsObject>, name: &str, v: Value, attrs: u8) {
        let key = self.key(name);
        self.define_data_raw(obj, key, v, attrs);
    }

    /// Installs one table row.
    fn install_row(&mut self, row: &Row) {
        let target: Gc<JsObject> = self.intrinsic(row.on).gc();
        let key = self.row_key(row.name);
        match row.kind {
            RowKind::Method | RowKind::Frozen => {
                // A method named by a string is named by its key's atom (nothing to make).
                let n = match (row.name, key) {
                    (Name::S(_), Key::Name(k)) => k.value(),
                    _ => self.row_function_name(row.name, ""),
                };
                let f = self.new_native_function(n, row.func, row.length as u32, false);
                let attrs = if row.kind == RowKind::Frozen { 0 } else { WRITABLE | CONFIGURABLE };
                self.define_data_raw(target, key, Value::object(f), attrs);
            }
            RowKind::Getter | RowKind::Setter => {
                let prefix = if row.kind == RowKind::Getter { "get " } else { "set " };
                let n = self.row_function_name(row.name, prefix);
                let f = Value::object(self.new_native_function(n, row.func, row.length as u32, false));
                let existing = self.get_own_property(target, key).ok().flatten();
                let (mut g, mut s) = match existing {
                    Some(d) if d.is_accessor() => {
                        (d.get.unwrap_or(Value::UNDEFINED), d.set.unwrap_or(Value::UNDEFINED))
                    }
                    _ => (Value::UNDEFINED, Value::UNDEFINED),
                };
                if row.kind == RowKind::Getter {
                    g = f;
                } else {
                    s = f;
                }
                let desc = crate::object::property::PropertyDescriptor::accessor(g, s, CONFIGURABLE);
                let _ = self.define_own_property(target, key, &desc);
            }
        }
    }

    /// A constructor function with `prototype` (not writable/enumerable/configurable) and
    /// `prototype.constructor`.
    pub(crate) fn make_constructor(
        &mut self,
        name: &str,
        func: NativeFn,
        length: u32,
        proto: Option<Gc<JsObject>>,
    ) -> Gc<JsObject> {
        let n = self.new_string(name);
        let c = self.new_native_function(n, func, length, true);
        if let Some(p) = proto {
            let pk = Key::Name(self.names.prototype);
            self.define_data_raw(c, pk, Value::object(p), 0);
            let ck = Key::Name(self.names.constructor);
            self.define_data_raw(p, ck, Value::object(c), WRITABLE | CONFIGURABLE);
        }
        c
    }

    /// An object data property value of an intrinsic (for wiring during setup).
    pub(crate) fn intrinsic_prop(&mut self, i: Intrinsic, name: &str) -> Value {
        let o = self.intrinsic_object(i);
        let key = self.key(name);
        self.peek_data(o, key).unwrap_or(Value::UNDEFINED)
    }
}

fn shape_with(rt: &mut Runtime, proto: Value, kind: CellKind, cap: u8, props: &[(PropKey, u8)]) -> Gc<Shape> {
    let mut s = rt.root_shape(proto, kind, cap);
    for &(k, attrs) in props {
        s = match rt.heap.get(s).find_transition(k, attrs) {
            Some(n) => n,
            None => {
                let d = rt.heap.get(s).derive_with(s, k, attrs);
                let n = rt.heap.alloc(d);
                rt.heap.get_mut(s).transitions.push((k, attrs, n));
                n
            }
        };
    }
    s
}

/// The shape of closures whose [[Prototype]] is `proto`: `length`, `name` and, with
/// `prototype_slot`, a writable `prototype` (made lazily).
pub(crate) fn closure_shape(rt: &mut Runtime, proto: Value, prototype_slot: bool) -> Gc<Shape> {
    let (length, name, prototype) = (rt.names.length, rt.names.name, rt.names.prototype);
    if prototype_slot {
        shape_with(
            rt,
            proto,
            CellKind::Closure,
            3,
            &[(length, CONFIGURABLE), (name, CONFIGURABLE), (prototype, WRITABLE)],
        )
    } else {
        shape_with(rt, proto, CellKind::Closure, 3, &[(length, CONFIGURABLE), (name, CONFIGURABLE)])
    }
}

/// Builds a realm: the intrinsics and a global object with every builtin. The realm is
/// pushed onto `rt.realms`, made current while it is built, and returned (popped again)
/// for the caller to register.
pub(crate) fn create_realm(rt: &mut Runtime) -> Realm {
    rt.building_realm = Some(Vec::new());
    let index = rt.realms.len() as u32;
    let saved = rt.realm;
    let tmp = rt.root_shape(Value::NULL, CellKind::Object, 0);
    let placeholder = rt.heap.alloc_object(JsObject::new(CellKind::Object, tmp), 0);
    let tmp_shapes = RealmShapes {
        object: tmp,
        array: tmp,
        iter_result: tmp,
        function: tmp,
        constructor: tmp,
        generator_function: tmp,
        async_function: tmp,
        async_generator_function: tmp,
        class_constructor: tmp,
        native_function: tmp,
        prototype_object: tmp,
        arguments: tmp,
        object_by_cap: [tmp; 17],
    };
    rt.realms.push(Realm {
        global: placeholder,
        intrinsics: vec![Value::UNDEFINED; Intrinsic::COUNT],
        shapes: tmp_shapes,
        templates: hashbrown::HashMap::new(),
        globals: Default::default(),
    });
    rt.realm = index;

    // %Object.prototype%: an immutable-prototype exotic object.
    let object_proto = rt.new_object_of_kind(Value::NULL, CellKind::Object, 8);
    rt.heap.get_mut(object_proto).header.flags |= IMMUTABLE_PROTO;
    rt.set_intrinsic(Intrinsic::ObjectPrototype, Value::object(object_proto));
    let op = Value::object(object_proto);

    // %Function.prototype%: itself a function returning undefined.
    let length = rt.names.length;
    let name = rt.names.name;
    let fp_shape = shape_with(rt, op, CellKind::NativeFunction, 2, &[(length, CONFIGURABLE), (name, CONFIGURABLE)]);
    let fp = NativeFunction {
        base: JsObject::new(CellKind::NativeFunction, fp_shape),
        func: function::function_prototype_call,
        data: Value::UNDEFINED,
        realm: index,
        constructor: false,
    };
    let fp = rt.heap.alloc_object(fp, 2).cast::<JsObject>();
    {
        let empty = rt.names.empty.value();
        let s = rt.heap.inline_slots_mut(fp);
        s[0] = Value::number(0.0);
        s[1] = empty;
    }
    rt.set_intrinsic(Intrinsic::FunctionPrototype, Value::object(fp));
    let fpv = Value::object(fp);

    // The shapes every allocation path uses.
    let prototype = rt.names.prototype;
    let constructor = rt.names.constructor;
    let value = rt.names.value;
    let done = rt.names.done;
    let callee = rt.names.callee;
    let iterator = rt.symbols.iterator;
    let native_function =
        shape_with(rt, fpv, CellKind::NativeFunction, 2, &[(length, CONFIGURABLE), (name, CONFIGURABLE)]);
    let function = closure_shape(rt, fpv, false);
    let ctor = closure_shape(rt, fpv, true);
    let class_ctor =
        shape_with(rt, fpv, CellKind::Closure, 3, &[(length, CONFIGURABLE), (name, CONFIGURABLE), (prototype, 0)]);
    let object = rt.root_shape(op, CellKind::Object, 4);
    let iter_result = shape_with(
        rt,
        op,
        CellKind::Object,
        2,
        &[(value, WRITABLE | ENUMERABLE | CONFIGURABLE), (done, WRITABLE | ENUMERABLE | CONFIGURABLE)],
    );
    let prototype_object = shape_with(rt, op, CellKind::Object, 4, &[(constructor, WRITABLE | CONFIGURABLE)]);
    let arguments = shape_with(
        rt,
        op,
        CellKind::Arguments,
        3,
        &[(length, WRITABLE | CONFIGURABLE), (iterator, WRITABLE | CONFIGURABLE), (callee, WRITABLE | CONFIGURABLE)],
    );
    {
        let r = &mut rt.realms[index as usize].shapes;
        r.native_function = native_function;
        r.function = function;
        r.constructor = ctor;
        r.class_constructor = class_ctor;
        r.generator_function = ctor;
        r.async_function = function;
        r.async_generator_function = ctor;
        r.object = object;
        r.iter_result = iter_result;
        r.prototype_object = prototype_object;
        r.arguments = arguments;
    }
    for cap in 0..17u8 {
        let s = rt.root_shape(op, CellKind::Object, cap);
        rt.realms[index as usize].shapes.object_by_cap[cap as usize] = s;
    }

    // %Array.prototype% is an Array exotic object.
    let array_root = rt.root_shape(op, CellKind::Array, 0);
    let ap = rt.heap.alloc_object(crate::object::array::JsArray::new(JsObject::new(CellKind::Array, array_root), 0), 0);
    let ap: Gc<JsObject> = ap.cast();
    rt.set_intrinsic(Intrinsic::ArrayPrototype, Value::object(ap));
    let array_shape = rt.root_shape(Value::object(ap), CellKind::Array, 0);
    rt.realms[index as usize].shapes.array = array_shape;

    // The remaining prototypes and constructors, then what links them. Their function
    // properties are made when something first looks at the object's own properties
    // (`install_builtins`; a link that reads one makes its object's at once): most programs
    // use few of the builtin objects.
    for b in BUILTINS {
        (b.init)(rt);
    }
    for b in BUILTINS {
        for row in b.rows {
            let target: Gc<JsObject> = rt.intrinsic(row.on).gc();
            rt.heap.get_mut(target).header.flags |= LAZY_BUILTINS;
        }
    }
    for b in BUILTINS {
        (b.link)(rt);
    }

    // The global object.
    let global = rt.new_object_of_kind(op, CellKind::Object, 16);
    rt.heap.get_mut(global).header.flags |= IS_GLOBAL;
    rt.realms[index as usize].global = global;

    rt.realm = saved;
    rt.realms.pop().unwrap_or_else(|| unreachable!())
}

/// Makes the function properties of `obj`, a builtin object flagged `LAZY_BUILTINS`: the
/// rows of every module whose target it is, in their order, in the realm it belongs to
/// (`Hooks::install_builtins`). As while a realm is built, the object grows one table of
/// its own, which becomes its fast shape again once they are all there.
fn install_builtins(rt: &mut Runtime, obj: Gc<JsObject>) {
    rt.heap.get_mut(obj).header.flags &= !LAZY_BUILTINS;
    let v = Value::object(obj);
    let Some(realm) = rt.realms.iter().position(|r| r.intrinsics.contains(&v)) else { return };
    // The intrinsics the object is (one name, as it happens), in the order of the rows.
    let mut ons: Vec<Intrinsic> = Vec::new();
    for row in BUILTINS.iter().flat_map(|b| b.rows) {
        if rt.realms[realm].intrinsics[row.on as usize] == v && !ons.contains(&row.on) {
            ons.push(row.on);
        }
    }
    let saved = rt.realm;
    rt.realm = realm as u32;
    let outer = rt.building_realm.replace(Vec::new());
    for b in BUILTINS {
        for row in b.rows.iter().filter(|row| ons.contains(&row.on)) {
            rt.install_row(row);
        }
    }
    for &on in &ons {
        for b in BUILTINS {
            (b.installed)(rt, on);
        }
    }
    let built = rt.building_realm.take().unwrap_or_default();
    match outer {
        // A realm being built settles its objects at its end.
        Some(mut objects) => {
            objects.extend(built);
            rt.building_realm = Some(objects);
        }
        None => settle_builtin_shapes(rt, built),
    }
    rt.realm = saved;
}

/// Ends the building of a realm (`create_realm`, then `install_globals`) or of a builtin
/// object's functions (`install_builtins`): the builtin objects that grew a table of their
/// own meanwhile (`BUILTIN_TABLE`, see `add_named`) get fast shapes again, so that inline
/// caches and compiled code treat them as any object. The table becomes the shape in place:
/// the shape is the object's own, no cache or code has seen it yet, and with no property
/// deleted its slots are the first ones in order. The table gets its index of keys here.
fn settle_builtin_shapes(rt: &mut Runtime, objects: Vec<Gc<JsObject>>) {
    for obj in objects {
        let shape = rt.heap.get(obj).shape;
        let s = rt.heap.get_mut(shape);
        if s.header.flags & BUILTIN_TABLE == 0 {
            continue;
        }
        let before = s.external_bytes();
        s.table.rebuild_index();
        s.header.flags &= !BUILTIN_TABLE;
        if s.table.free_slots.is_empty() {
            s.header.flags &= !DICTIONARY;
        }
        let grown = s.external_bytes().saturating_sub(before);
        rt.heap.note_external(grown);
    }
}

/// Defines the global object's properties for realm `realm`.
pub(crate) fn install_globals(rt: &mut Runtime, realm: u32) {
    let saved = rt.realm;
    rt.realm = realm;
    let g = rt.global_object();
    for b in BUILTINS {
        for &(name, i) in b.globals {
            let v = rt.intrinsic(i);
            if !v.is_undefined() {
                rt.define_value(g, name, v, WRITABLE | CONFIGURABLE);
            }
        }
        (b.install)(rt, g);
    }
    if rt.host.options.expose_gc {
        let f = rt.new_native("gc", test262::gc, 0);
        rt.define_value(g, "gc", Value::object(f), WRITABLE | CONFIGURABLE);
    }
    let objects = rt.building_realm.take().unwrap_or_default();
    settle_builtin_shapes(rt, objects);
    rt.realm = saved;
}

/// A property of the intrinsic `on` that is an accessor (for checks in tests).
#[allow(dead_code)]
pub(crate) fn has_accessor(rt: &mut Runtime, on: Intrinsic, name: &str) -> JsResult<bool> {
    let o = rt.intrinsic_object(on);
    let key = rt.key(name);
    Ok(match rt.own_lookup(o, key) {
        crate::object::property::Own::Slot(_, attrs) => attrs & ACCESSOR != 0,
        _ => false,
    })
}

/// SetterThatIgnoresPrototypeProperties(thisValue, home, p, v): the setter of an accessor
/// on a prototype that makes an own data property on objects that inherit it.
pub(crate) fn setter_that_ignores_prototype_properties(
    rt: &mut Runtime,
    this: Value,
    home: Intrinsic,
    p: Key,
    v: Value,
) -> JsResult<()> {
    // 1. If thisValue is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(rt.throw_type_error("The setter was called on a non-object"));
    }
    // 2. If SameValue(thisValue, home) is true, throw a TypeError exception.
    if this == rt.intrinsic(home) {
        return Err(rt.throw_type_error("Cannot assign to this property of its prototype"));
    }
    // 3. Let desc be ? thisValue.[[GetOwnProperty]](p).
    let o: Gc<JsObject> = this.gc();
    match rt.get_own_property(o, p)? {
        // 4. If desc is undefined, perform ? CreateDataPropertyOrThrow(thisValue, p, v).
        None => rt.create_data_property_or_throw(o, p, v),
        // 5. Else, perform ? Set(thisValue, p, v, true).
        Some(_) => {
            if rt.set(o, p, v, this)? {
                Ok(())
            } else {
                Err(rt.throw_type_error("Cannot assign to a read-only property"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::RuntimeOptions;

    /// Every builtin object reachable from the global object through data properties and
    /// prototypes has a fast shape once the realm is built, as if its properties had been
    /// added one by one (`settle_builtin_shapes`), but a shape of its own: no chain of
    /// shapes was made on the way.
    #[test]
    fn builtin_objects_have_fast_shapes() {
        let mut rt = Runtime::new(RuntimeOptions::default());
        let mut seen = std::collections::HashSet::new();
        let mut work = vec![rt.global_object()];
        let mut own = 0;
        while let Some(obj) = work.pop() {
            if !seen.insert(obj) {
                continue;
            }
            // Its functions made first (as the key listing below would).
            rt.install_lazy_builtins(obj);
            let shape = rt.heap.get(obj).shape;
            let (flags, count, proto, parent) = {
                let s = rt.heap.get(shape);
                (s.header.flags, s.property_count(), s.proto, s.parent)
            };
            if flags & (DICTIONARY | BUILTIN_TABLE) != 0 {
                let keys: Vec<Key> = rt.own_keys_raw(obj).into_iter().take(4).collect();
                let keys: Vec<String> = keys.into_iter().map(|k| rt.key_display(k)).collect();
                panic!("a builtin object with a dictionary shape: {keys:?}");
            }
            if count > 0 && parent.is_none() {
                own += 1;
            }
            if proto.is_object() {
                work.push(proto.gc());
            }
            for key in rt.own_keys_raw(obj) {
                if let Some(v) = rt.peek_data(obj, key) {
                    if v.is_object() {
                        work.push(v.gc());
                    }
                }
            }
        }
        // The global object, the prototypes, the constructors, Math, Reflect, ...
        assert!(own > 90, "{own}");
        assert!(seen.len() > 200, "{}", seen.len());
    }

    /// A builtin object's functions are made at the first look at its own properties, all
    /// of them, and it has a fast shape of its own again after.
    #[test]
    fn builtin_functions_are_made_at_the_first_lookup() {
        let mut rt = Runtime::new(RuntimeOptions::default());
        let proto = rt.intrinsic_object(Intrinsic::DataViewPrototype);
        assert_ne!(rt.heap.get(proto).header.flags & LAZY_BUILTINS, 0);
        let count = |rt: &Runtime| rt.heap.get(rt.heap.get(proto).shape).property_count();
        // `constructor` and @@toStringTag are made with the object.
        let before = count(&rt);
        let key = rt.key("getInt8");
        assert!(rt.peek_data(proto, key).is_some_and(|v| v.is_object()));
        assert_eq!(rt.heap.get(proto).header.flags & LAZY_BUILTINS, 0);
        // A setter joins its getter's property.
        let properties = (BUILTINS.iter().flat_map(|b| b.rows))
            .filter(|r| r.on == Intrinsic::DataViewPrototype && r.kind != RowKind::Setter)
            .count();
        assert!(properties > 20, "{properties}");
        assert_eq!(count(&rt), before + properties);
        let shape = rt.heap.get(rt.heap.get(proto).shape);
        assert_eq!(shape.header.flags & (DICTIONARY | BUILTIN_TABLE), 0);
        // Objects the realm's links read have theirs already.
        let ap = rt.intrinsic_object(Intrinsic::ArrayPrototype);
        assert_eq!(rt.heap.get(ap).header.flags & LAZY_BUILTINS, 0);
    }
}
