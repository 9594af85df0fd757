//! Realms: a global object and a complete set of intrinsics.
//!
//! A runtime holds any number of realms (`$262.createRealm` makes new ones); each function
//! records the realm it belongs to, and the running function's realm is the current one.
//! The intrinsics are declared once, in `for_each_intrinsic!`.

use crate::gc::{Gc, Heap};
use crate::object::{JsObject, Shape};
use crate::runtime::global_env::GlobalDecls;
use crate::value::Value;

macro_rules! for_each_intrinsic {
    ($m:ident) => {
        $m! {
            ObjectPrototype, FunctionPrototype, ArrayPrototype, StringPrototype, NumberPrototype,
            BooleanPrototype, SymbolPrototype, BigIntPrototype, ErrorPrototype, TypeErrorPrototype,
            RangeErrorPrototype, ReferenceErrorPrototype, SyntaxErrorPrototype, EvalErrorPrototype,
            UriErrorPrototype, AggregateErrorPrototype, IteratorPrototype, ArrayIteratorPrototype,
            StringIteratorPrototype, MapIteratorPrototype, SetIteratorPrototype,
            RegExpStringIteratorPrototype, GeneratorPrototype, GeneratorFunctionPrototype,
            AsyncFunctionPrototype, AsyncFunction,
            AsyncIteratorPrototype, AsyncFromSyncIteratorPrototype, AsyncGeneratorPrototype,
            AsyncGeneratorFunctionPrototype, AsyncGeneratorFunction,
            DatePrototype, RegExpPrototype, MapPrototype, SetPrototype, WeakMapPrototype,
            WeakSetPrototype, PromisePrototype,
            Object, Function, Array, String, Number, Boolean, Symbol, BigInt, Error, TypeError,
            RangeError, ReferenceError, SyntaxError, EvalError, UriError, AggregateError, Date, RegExp,
            Map, Set, WeakMap, WeakSet, Promise, GeneratorFunction, ThrowTypeError, ArrayProtoValues, FunctionProtoApply,
            ObjectProtoToString, Eval, ArrayIteratorProtoNext, StringIteratorProtoNext,
            StringProtoIterator, RegExpProtoExec, ArgumentsMapKey, ErrorStackKey,
            Iterator, IteratorHelperPrototype, WrapForValidIteratorPrototype,
            WeakRef, WeakRefPrototype, FinalizationRegistry, FinalizationRegistryPrototype,
            Proxy, ArrayBuffer, ArrayBufferPrototype, SharedArrayBuffer, SharedArrayBufferPrototype, DataView, DataViewPrototype,
            TypedArray, TypedArrayPrototype, TypedArrayProtoValues,
            Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
            Float16Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array,
            Int8ArrayPrototype, Uint8ArrayPrototype, Uint8ClampedArrayPrototype, Int16ArrayPrototype,
            Uint16ArrayPrototype, Int32ArrayPrototype, Uint32ArrayPrototype, Float16ArrayPrototype,
            Float32ArrayPrototype, Float64ArrayPrototype, BigInt64ArrayPrototype, BigUint64ArrayPrototype,
            SuppressedError, SuppressedErrorPrototype, DisposableStack, DisposableStackPrototype,
            AsyncDisposableStack, AsyncDisposableStackPrototype,
        }
    };
}

macro_rules! define_intrinsics {
    ($($name:ident),* $(,)?) => {
        /// A realm intrinsic (`%Name%` of the specification).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u16)]
        pub enum Intrinsic { $($name,)* }

        impl Intrinsic {
            /// The number of intrinsics.
            pub const COUNT: usize = [$(Intrinsic::$name),*].len();
        }
    };
}

for_each_intrinsic!(define_intrinsics);

/// Shapes every realm precomputes for fast allocation.
#[derive(Clone, Copy)]
pub struct RealmShapes {
    /// `{}`: Object.prototype, 4 inline slots.
    pub object: Gc<Shape>,
    /// `[]`: Array.prototype.
    pub array: Gc<Shape>,
    /// `{value, done}` iterator results.
    pub iter_result: Gc<Shape>,
    /// Closures without `prototype`: `length`, `name`.
    pub function: Gc<Shape>,
    /// Constructor closures: `length`, `name`, `prototype` (lazy).
    pub constructor: Gc<Shape>,
    /// Generator function closures: `length`, `name`, `prototype` (lazy).
    pub generator_function: Gc<Shape>,
    /// Async function closures: `length`, `name`; [[Prototype]] %AsyncFunction.prototype%.
    pub async_function: Gc<Shape>,
    /// Async generator function closures: `length`, `name`, `prototype` (lazy);
    /// [[Prototype]] %AsyncGeneratorFunction.prototype%.
    pub async_generator_function: Gc<Shape>,
    /// Class constructors: `length`, `name`, `prototype` (non-writable, set by defineClass).
    pub class_constructor: Gc<Shape>,
    /// Native functions: `length`, `name`.
    pub native_function: Gc<Shape>,
    /// Prototype objects of constructors: `constructor`.
    pub prototype_object: Gc<Shape>,
    /// Arguments objects: `length`, `callee`, `@@iterator`.
    pub arguments: Gc<Shape>,
    /// `{}` with 0 ..= 16 inline slots (object literals are sized to their properties).
    pub object_by_cap: [Gc<Shape>; 17],
}

/// A realm. See the module docs.
pub struct Realm {
    /// The global object.
    pub global: Gc<JsObject>,
    /// The intrinsics by `Intrinsic` index (undefined until created).
    pub intrinsics: Vec<Value>,
    /// Precomputed shapes.
    pub shapes: RealmShapes,
    /// Template objects of tagged templates, by (bundle, template id).
    pub templates: hashbrown::HashMap<(u32, u32), Value>,
    /// The scripts' global lexical declarations and var names.
    pub globals: GlobalDecls,
}

impl Realm {
    /// Marks the global object, the intrinsics, the precomputed shapes and the templates.
    pub(crate) fn trace(&self, heap: &mut Heap) {
        heap.mark(self.global);
        for &v in &self.intrinsics {
            heap.mark_value(v);
        }
        let s = self.shapes;
        for shape in [
            s.object,
            s.array,
            s.iter_result,
            s.function,
            s.constructor,
            s.generator_function,
            s.async_function,
            s.async_generator_function,
            s.class_constructor,
            s.native_function,
            s.prototype_object,
            s.arguments,
        ] {
            heap.mark(shape);
        }
        for &shape in s.object_by_cap.iter() {
            heap.mark(shape);
        }
        for &v in self.templates.values() {
            heap.mark_value(v);
        }
        self.globals.trace(heap);
    }

    /// The intrinsic `i`.
    #[inline(always)]
    pub(crate) fn intrinsic(&self, i: Intrinsic) -> Value {
        self.intrinsics[i as usize]
    }
}
