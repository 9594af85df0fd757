//! Predefined atoms and well-known symbols: the names the runtime itself looks up.
//!
//! One table (`for_each_name!`) declares every predefined atom; `Names` gets a `PropKey`
//! field per row, created once per runtime and rooted for its lifetime.

use crate::gc::Heap;
use crate::object::{PropKey, Symbol};
use crate::string::atoms::AtomTable;
use crate::value::Value;

macro_rules! for_each_name {
    ($m:ident) => {
        $m! {
            length = "length"; prototype = "prototype"; constructor = "constructor"; name = "name";
            message = "message"; stack = "stack"; cause = "cause"; to_string = "toString";
            value_of = "valueOf"; value = "value"; done = "done"; next = "next"; return_ = "return";
            throw = "throw"; get = "get"; set = "set"; writable = "writable"; enumerable = "enumerable";
            configurable = "configurable"; callee = "callee"; caller = "caller"; arguments = "arguments";
            to_json = "toJSON"; last_index = "lastIndex"; index = "index"; input = "input";
            groups = "groups"; raw = "raw"; join = "join"; flags = "flags"; source = "source";
            global = "global"; ignore_case = "ignoreCase"; multiline = "multiline"; dot_all = "dotAll";
            unicode = "unicode"; unicode_sets = "unicodeSets"; sticky = "sticky"; has_indices = "hasIndices";
            exec = "exec"; then = "then"; errors = "errors"; empty = ""; undefined = "undefined";
            null = "null"; true_ = "true"; false_ = "false"; object = "object"; function = "function";
            number = "number"; string = "string"; boolean = "boolean"; symbol = "symbol"; bigint = "bigint";
            default = "default"; anonymous = "anonymous"; nan = "NaN"; infinity = "Infinity";
            neg_infinity = "-Infinity"; zero = "0"; global_this = "globalThis"; add = "add";
            size = "size"; proto = "__proto__"; key = "key"; keys = "keys"; values = "values";
            entries = "entries"; bound = "bound "; get_prefix = "get "; set_prefix = "set ";
            error = "Error"; description = "description"; species = "species";
        }
    };
}

macro_rules! define_names {
    ($($field:ident = $text:literal;)*) => {
        /// The predefined atoms, as property keys.
        #[derive(Clone, Copy)]
        pub struct Names {
            $( #[doc = concat!("`\"", $text, "\"`")] pub $field: PropKey, )*
        }

        impl Names {
            /// Interns every predefined atom.
            pub(crate) fn new(heap: &mut Heap, atoms: &mut AtomTable) -> Names {
                Names { $( $field: PropKey::atom(atoms.intern_str(heap, $text)), )* }
            }

            /// Every predefined atom (for rooting).
            pub(crate) fn all(&self) -> Vec<PropKey> {
                vec![$(self.$field),*]
            }
        }
    };
}

for_each_name!(define_names);

macro_rules! for_each_well_known_symbol {
    ($m:ident) => {
        $m! {
            async_dispose = "Symbol.asyncDispose", "asyncDispose";
            async_iterator = "Symbol.asyncIterator", "asyncIterator";
            dispose = "Symbol.dispose", "dispose";
            has_instance = "Symbol.hasInstance", "hasInstance";
            is_concat_spreadable = "Symbol.isConcatSpreadable", "isConcatSpreadable";
            iterator = "Symbol.iterator", "iterator";
            match_ = "Symbol.match", "match";
            match_all = "Symbol.matchAll", "matchAll";
            replace = "Symbol.replace", "replace";
            search = "Symbol.search", "search";
            species = "Symbol.species", "species";
            split = "Symbol.split", "split";
            to_primitive = "Symbol.toPrimitive", "toPrimitive";
            to_string_tag = "Symbol.toStringTag", "toStringTag";
            unscopables = "Symbol.unscopables", "unscopables";
        }
    };
}

macro_rules! define_symbols {
    ($($field:ident = $desc:literal, $prop:literal;)*) => {
        /// The well-known symbols (shared by all realms), as property keys.
        #[derive(Clone, Copy)]
        pub struct WellKnownSymbols {
            $( #[doc = concat!("`", $desc, "`")] pub $field: PropKey, )*
        }

        impl WellKnownSymbols {
            /// Creates the symbols.
            pub(crate) fn new(heap: &mut Heap) -> WellKnownSymbols {
                WellKnownSymbols { $( $field: {
                    let d = heap.alloc_str($desc);
                    PropKey::from_value(Value::symbol(heap.alloc(Symbol::new(Value::string(d)))))
                }, )* }
            }

            /// `(name of the Symbol constructor's property, symbol)` pairs.
            pub(crate) fn all(&self) -> Vec<(&'static str, PropKey)> {
                vec![$(($prop, self.$field)),*]
            }
        }
    };
}

for_each_well_known_symbol!(define_symbols);
