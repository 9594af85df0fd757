//! HIR types: a bitset over the kinds of JavaScript value an SSA value may hold.
//!
//! A type on a value is a promise the optimizer may rely on: a value typed `number` is never
//! anything else at run time. The empty set is "no value" (unreachable); `Type::ANY` is every
//! kind a program can observe. `empty` is the TDZ marker of an uninitialized binding and
//! `environment` a heap scope; neither is ever visible to JavaScript code.
//!
//! An object of unknown origin has the full `anyobject` type. Only instructions that make
//! fresh ordinary objects give a narrower object type (`object`, `closure`, `regexp`), so a
//! value typed that way is never a host exotic object such as test262's IsHTMLDDA (which is
//! falsy and whose `typeof` is "undefined"); passes rely on this when folding truthiness and
//! `typeof`.

/// A set of value kinds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Type(pub u16);

macro_rules! type_bits {
    ($($(#[$attr:meta])* $name:ident = $bit:expr, $text:literal;)*) => {
        impl Type {
            $($(#[$attr])* pub const $name: Type = Type(1 << $bit);)*
            const NAMES: &'static [(Type, &'static str)] = &[$((Type::$name, $text)),*];
        }
    };
}

type_bits! {
    /// `undefined`.
    UNDEFINED = 0, "undefined";
    /// `null`.
    NULL = 1, "null";
    /// `true` or `false`.
    BOOLEAN = 2, "boolean";
    /// A string.
    STRING = 3, "string";
    /// A number (double; int32 is a refinement the backend may discover).
    NUMBER = 4, "number";
    /// A BigInt.
    BIGINT = 5, "bigint";
    /// A symbol.
    SYMBOL = 6, "symbol";
    /// An object that is neither a closure nor a regexp.
    PLAIN_OBJECT = 7, "object";
    /// A function object.
    CLOSURE = 8, "closure";
    /// A RegExp object.
    REGEXP = 9, "regexp";
    /// A heap scope (environment).
    ENVIRONMENT = 10, "environment";
    /// The TDZ marker of an uninitialized binding.
    EMPTY = 11, "empty";
}

impl Type {
    /// No value at all.
    pub const NONE: Type = Type(0);
    /// Any object.
    pub const OBJECT: Type = Type(Type::PLAIN_OBJECT.0 | Type::CLOSURE.0 | Type::REGEXP.0);
    /// Any primitive.
    pub const PRIMITIVE: Type = Type(
        Type::UNDEFINED.0
            | Type::NULL.0
            | Type::BOOLEAN.0
            | Type::STRING.0
            | Type::NUMBER.0
            | Type::BIGINT.0
            | Type::SYMBOL.0,
    );
    /// Any value JavaScript code can observe.
    pub const ANY: Type = Type(Type::PRIMITIVE.0 | Type::OBJECT.0);
    /// A number or a BigInt (the result of ToNumeric).
    pub const NUMERIC: Type = Type(Type::NUMBER.0 | Type::BIGINT.0);
    /// Undefined or null.
    pub const NULLISH: Type = Type(Type::UNDEFINED.0 | Type::NULL.0);

    /// The union of two types.
    pub const fn union(self, other: Type) -> Type {
        Type(self.0 | other.0)
    }
    /// The intersection of two types.
    pub const fn intersect(self, other: Type) -> Type {
        Type(self.0 & other.0)
    }
    /// `self` without the kinds in `other`.
    pub const fn without(self, other: Type) -> Type {
        Type(self.0 & !other.0)
    }
    /// Whether every kind of `self` is in `other`.
    pub const fn is_subset_of(self, other: Type) -> bool {
        self.0 & !other.0 == 0
    }
    /// Whether `self` and `other` share a kind.
    pub const fn overlaps(self, other: Type) -> bool {
        self.0 & other.0 != 0
    }
    /// Whether the set is empty.
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
    /// Whether the value is certainly a number.
    pub const fn is_number(self) -> bool {
        self.0 != 0 && self.is_subset_of(Type::NUMBER)
    }
    /// Whether the value is certainly a string.
    pub const fn is_string(self) -> bool {
        self.0 != 0 && self.is_subset_of(Type::STRING)
    }
    /// Whether the value is certainly a primitive.
    pub const fn is_primitive(self) -> bool {
        self.0 != 0 && self.is_subset_of(Type::PRIMITIVE)
    }

    /// Parses the text form written by `Display` (`number|string`, `any`, `none`).
    pub fn parse(text: &str) -> Option<Type> {
        match text {
            "any" => return Some(Type::ANY),
            "none" => return Some(Type::NONE),
            _ => {}
        }
        let mut ty = Type::NONE;
        for part in text.split('|') {
            let part = part.trim();
            ty = ty.union(match part {
                "any" => Type::ANY,
                "anyobject" => Type::OBJECT,
                _ => Type::NAMES.iter().find(|(_, name)| *name == part)?.0,
            });
        }
        Some(ty)
    }
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == Type::ANY {
            return f.write_str("any");
        }
        if self.is_none() {
            return f.write_str("none");
        }
        let mut rest = *self;
        let mut first = true;
        // `any` plus extra internal kinds (`any|empty`) prints the base set by name.
        let any_prefix = Type::ANY.is_subset_of(rest);
        if any_prefix {
            rest = rest.without(Type::ANY);
        }
        let mut sep = |f: &mut std::fmt::Formatter<'_>| {
            let s = if first { "" } else { "|" };
            first = false;
            f.write_str(s)
        };
        if any_prefix {
            sep(f)?;
            f.write_str("any")?;
        }
        if rest.intersect(Type::OBJECT) == Type::OBJECT {
            sep(f)?;
            f.write_str("anyobject")?;
            rest = rest.without(Type::OBJECT);
        }
        for (bit, name) in Type::NAMES {
            if rest.overlaps(*bit) {
                sep(f)?;
                f.write_str(name)?;
            }
        }
        Ok(())
    }
}

impl std::fmt::Debug for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips() {
        for ty in [
            Type::ANY,
            Type::NONE,
            Type::NUMBER,
            Type::NUMBER.union(Type::STRING),
            Type::OBJECT,
            Type::OBJECT.union(Type::UNDEFINED),
            Type::CLOSURE,
            Type::EMPTY.union(Type::ANY),
            Type::ENVIRONMENT.union(Type::STRING),
        ] {
            assert_eq!(Type::parse(&ty.to_string()), Some(ty), "{ty}");
        }
    }

    #[test]
    fn any_with_internal_kinds_prints_compactly() {
        assert_eq!(Type::ANY.union(Type::EMPTY).to_string(), "any|empty");
    }

    #[test]
    fn subset_and_predicates() {
        assert!(Type::NUMBER.is_subset_of(Type::NUMERIC));
        assert!(!Type::ANY.is_number());
        assert!(!Type::NONE.is_number());
        assert!(Type::CLOSURE.is_subset_of(Type::OBJECT));
    }
}
