//! `BuiltinId`, generated from the internal builtin table `for_each_builtin!`.

macro_rules! define_builtin_ids {
    ($( $(#[$meta:meta])* $name:ident = $index:literal, $js:literal; )*) => {
        /// An internal builtin reached through `call_builtin`; the number is its encoding.
        #[repr(u8)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum BuiltinId {
            $( $(#[$meta])* $name = $index, )*
        }

        impl BuiltinId {
            /// Every builtin, in numbering order.
            pub const ALL: &'static [BuiltinId] = &[$(BuiltinId::$name),*];
            /// The number of builtins.
            pub const COUNT: usize = BuiltinId::ALL.len();

            /// The builtin numbered `b`.
            pub fn from_u8(b: u8) -> Option<BuiltinId> {
                BuiltinId::ALL.get(usize::from(b)).copied()
            }

            /// The builtin's name in the disassembly and in error messages.
            pub fn name(self) -> &'static str {
                match self { $( BuiltinId::$name => $js, )* }
            }

            /// The builtin named `name`.
            pub fn from_name(name: &str) -> Option<BuiltinId> {
                BuiltinId::ALL.iter().copied().find(|b| b.name() == name)
            }
        }
    };
}

for_each_builtin!(define_builtin_ids);

// The numbers must be dense from 0 (`from_u8` indexes `ALL`) and fit the `U8` operand.
const _: () = {
    assert!(BuiltinId::COUNT <= 256);
    let mut i = 0;
    while i < BuiltinId::COUNT {
        assert!(BuiltinId::ALL[i] as usize == i, "builtin rows must be numbered 0, 1, 2, ...");
        i += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_round_trip() {
        for (i, &b) in BuiltinId::ALL.iter().enumerate() {
            assert_eq!(BuiltinId::from_u8(i as u8), Some(b));
            assert_eq!(BuiltinId::from_name(b.name()), Some(b));
        }
        assert_eq!(BuiltinId::from_u8(BuiltinId::COUNT as u8), None);
        assert_eq!(BuiltinId::CopyDataProperties.name(), "copyDataProperties");
    }
}
