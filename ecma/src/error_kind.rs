//! The native error types (ECMA-262 20.5.5 and 20.5.7): one table for the IR's `ThrowError`,
//! the bytecode's `throw_error` operand and the VM's error constructors.

/// Invokes `$m!` with every error kind: `Variant = number, "constructor name";`.
/// The numbers are the bytecode encoding: append, never renumber.
macro_rules! for_each_error_kind {
    ($m:ident) => {
        $m! {
            Error = 0, "Error";
            TypeError = 1, "TypeError";
            ReferenceError = 2, "ReferenceError";
            SyntaxError = 3, "SyntaxError";
            RangeError = 4, "RangeError";
            EvalError = 5, "EvalError";
            UriError = 6, "URIError";
            AggregateError = 7, "AggregateError";
        }
    };
}

macro_rules! define_error_kinds {
    ($($variant:ident = $n:literal, $name:literal;)*) => {
        /// A native error type, by its constructor.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum ErrorKind {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant = $n,
            )*
        }

        impl ErrorKind {
            /// Every kind, in encoding order.
            pub const ALL: &'static [ErrorKind] = &[$(ErrorKind::$variant),*];

            /// The constructor's name.
            pub fn name(self) -> &'static str {
                match self {
                    $(ErrorKind::$variant => $name,)*
                }
            }

            /// The kind encoded as `b`.
            pub fn from_u8(b: u8) -> Option<ErrorKind> {
                match b {
                    $($n => Some(ErrorKind::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

for_each_error_kind!(define_error_kinds);

impl ErrorKind {
    /// The kind whose constructor is named `name`.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.iter().copied().find(|k| k.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorKind;

    #[test]
    fn encoding_and_names_round_trip() {
        for (i, &k) in ErrorKind::ALL.iter().enumerate() {
            assert_eq!(k as usize, i);
            assert_eq!(ErrorKind::from_u8(k as u8), Some(k));
            assert_eq!(ErrorKind::from_name(k.name()), Some(k));
        }
        assert_eq!(ErrorKind::from_u8(ErrorKind::ALL.len() as u8), None);
        assert_eq!(ErrorKind::UriError.name(), "URIError");
        assert_eq!(ErrorKind::from_name("Test262Error"), None);
    }
}
