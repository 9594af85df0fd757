//! Direct eval: what eval code is compiled against. A function that contains a direct
//! `eval(...)` keeps every declaration in scope there in heap environments; at the call,
//! IRGen writes down the chain of those environments (an [`EvalScope`], passed to the
//! runtime as text with the innermost environment), and the eval code is compiled with the
//! same chain as its outer scopes: it reaches the caller's variables at their slots, reads
//! `this`, `new.target` and `super` from the caller's internal declarations, and in sloppy
//! code declares its `var`s and functions on the caller's `%evalvars` object (or globally
//! at the top level of a script).
//!
//! ```text
//!  flags (s strict, f in a function, p in parameter expressions, n new.target allowed,
//!         h super.x allowed, c super() allowed, a arguments not allowed (a field
//!         initializer or static block), d derived constructor, m module code,
//!         D a lazily compiled function declaration: its name is not its own binding,
//!         M a lazily compiled method, getter or setter: its text is a MethodDefinition),
//!    then for lazy compilation @line:column, where the function's text starts
//!  one line per environment, innermost first: "V" (the function's var scope) or "-",
//!    a space, then name:kind,... in slot order (kind v var, l let, c const, m import,
//!    i internal: `this` and the other `%` names, or a function expression's own name),
//!    each in the slot after the one before (the first in slot 0) unless it says
//!    name:kind@slot
//! ```
//!
//! Lazy compilation uses the same description: a function left uncompiled is compiled on
//! its first call against the environments around its closure, of which the description
//! lists only the variables the function (or a function in it) uses.
//! (A function with direct eval does not map its arguments object to its parameters, so
//! they stay in its environment: `arguments[0] = 1` in sloppy code does not change the first
//! parameter there, a known gap.)

use ir::VarKind;

/// The most environment slots a description may cover, over all its environments (a
/// hostile bundle's description must not make the compiler allocate without bound).
const MAX_SLOTS: u32 = 1 << 20;

/// The caller's scope of a direct eval (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalScope {
    /// The caller is strict code.
    pub strict: bool,
    /// The eval is in a function (its `var`s go to the function, not the global object).
    pub in_function: bool,
    /// The eval is in parameter expressions (it may not declare `arguments`).
    pub in_params: bool,
    /// `new.target` is allowed (in a non-arrow function or an arrow in one).
    pub new_target: bool,
    /// `super.x` is allowed (in a method).
    pub super_prop: bool,
    /// `super()` is allowed (in a derived constructor).
    pub super_call: bool,
    /// In a field initializer or static block (or an arrow in one): `arguments` is a
    /// syntax error.
    pub no_arguments: bool,
    /// In a derived constructor: `this` is in its TDZ until `super()` returns.
    pub derived: bool,
    /// Module code (`this` is undefined at the top level).
    pub module: bool,
    /// Lazy compilation of a function declaration: the function's name is bound outside
    /// it, not in it (as a function expression's is).
    pub declaration: bool,
    /// Lazy compilation of a method, getter or setter: the text is a MethodDefinition, not
    /// an expression (it is compiled as a method of an object literal around it).
    pub method: bool,
    /// Lazy compilation: the line and column where the function's text starts in its file.
    pub origin: Option<(u32, u32)>,
    /// The heap environments, innermost first.
    pub levels: Vec<EvalLevel>,
}

/// One environment of the caller's chain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalLevel {
    /// The calling function's var scope (where `%evalvars` is).
    pub var_scope: bool,
    /// The variables, in slot order.
    pub vars: Vec<EvalVar>,
}

/// A variable of an environment of the caller's chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalVar {
    /// Its name.
    pub name: String,
    /// How it was declared.
    pub kind: VarKind,
    /// Its slot in the environment.
    pub slot: u32,
}

impl EvalVar {
    /// Variable `name` of kind `kind` in slot `slot`.
    pub fn new(name: impl Into<String>, kind: VarKind, slot: u32) -> EvalVar {
        EvalVar { name: name.into(), kind, slot }
    }
}

fn kind_letter(k: VarKind) -> char {
    match k {
        VarKind::Var => 'v',
        VarKind::Let => 'l',
        VarKind::Const => 'c',
        VarKind::Internal => 'i',
        VarKind::Import => 'm',
    }
}

fn letter_kind(c: &str) -> Option<VarKind> {
    Some(match c {
        "v" => VarKind::Var,
        "l" => VarKind::Let,
        "c" => VarKind::Const,
        "i" => VarKind::Internal,
        "m" => VarKind::Import,
        _ => return None,
    })
}

impl EvalScope {
    /// The text form (see the module docs).
    pub fn encode(&self) -> String {
        let mut out = String::new();
        for (on, c) in [
            (self.strict, 's'),
            (self.in_function, 'f'),
            (self.in_params, 'p'),
            (self.new_target, 'n'),
            (self.super_prop, 'h'),
            (self.super_call, 'c'),
            (self.no_arguments, 'a'),
            (self.derived, 'd'),
            (self.module, 'm'),
            (self.declaration, 'D'),
            (self.method, 'M'),
        ] {
            if on {
                out.push(c);
            }
        }
        if let Some((line, col)) = self.origin {
            out.push_str(&format!("@{line}:{col}"));
        }
        for level in &self.levels {
            out.push('\n');
            out.push(if level.var_scope { 'V' } else { '-' });
            out.push(' ');
            let mut next = 0;
            for (i, v) in level.vars.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&v.name);
                out.push(':');
                out.push(kind_letter(v.kind));
                if v.slot != next {
                    out.push('@');
                    out.push_str(&v.slot.to_string());
                }
                next = v.slot.wrapping_add(1);
            }
        }
        out
    }

    /// Reads the text form; `None` if it is malformed (only a hostile bundle makes one).
    pub fn decode(text: &str) -> Option<EvalScope> {
        let mut lines = text.split('\n');
        let first = lines.next()?;
        let (flags, origin) = match first.split_once('@') {
            Some((flags, at)) => {
                let (line, col) = at.split_once(':')?;
                (flags, Some((line.parse().ok()?, col.parse().ok()?)))
            }
            None => (first, None),
        };
        let has = |c| flags.contains(c);
        let mut scope = EvalScope {
            strict: has('s'),
            in_function: has('f'),
            in_params: has('p'),
            new_target: has('n'),
            super_prop: has('h'),
            super_call: has('c'),
            no_arguments: has('a'),
            derived: has('d'),
            module: has('m'),
            declaration: has('D'),
            method: has('M'),
            origin,
            ..EvalScope::default()
        };
        let mut slots = 0u32;
        for line in lines {
            let (mark, rest) = line.split_once(' ')?;
            let entries = rest.split(',').filter(|e| !e.is_empty());
            if mark != "V" && mark != "-" {
                return None;
            }
            let mut vars = Vec::new();
            let mut next = 0u32;
            for e in entries {
                let (n, k) = e.rsplit_once(':')?;
                let (k, slot) = match k.split_once('@') {
                    Some((k, slot)) => (k, slot.parse().ok()?),
                    None => (k, next),
                };
                if slot < next {
                    return None;
                }
                vars.push(EvalVar::new(n, letter_kind(k)?, slot));
                next = slot.checked_add(1)?;
            }
            // The compiler makes a variable for every slot up to the last one named.
            slots = slots.checked_add(next).filter(|&n| n <= MAX_SLOTS)?;
            scope.levels.push(EvalLevel { var_scope: mark == "V", vars });
        }
        Some(scope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_round_trip() {
        let s = EvalScope {
            strict: false,
            in_function: true,
            new_target: true,
            no_arguments: true,
            levels: vec![
                EvalLevel {
                    var_scope: false,
                    vars: vec![EvalVar::new("x", VarKind::Let, 0), EvalVar::new("y", VarKind::Const, 7)],
                },
                EvalLevel {
                    var_scope: true,
                    vars: vec![
                        EvalVar::new("this", VarKind::Internal, 0),
                        EvalVar::new("new.target", VarKind::Internal, 1),
                    ],
                },
                EvalLevel { var_scope: false, vars: vec![] },
            ],
            ..EvalScope::default()
        };
        assert_eq!(s.encode(), "fna\n- x:l,y:c@7\nV this:i,new.target:i\n- ");
        assert_eq!(EvalScope::decode(&s.encode()), Some(s));
        let lazy = EvalScope { declaration: true, strict: true, origin: Some((12, 5)), ..EvalScope::default() };
        assert_eq!(lazy.encode(), "sD@12:5");
        assert_eq!(EvalScope::decode(&lazy.encode()), Some(lazy));
        let method = EvalScope { strict: true, method: true, origin: Some((3, 1)), ..EvalScope::default() };
        assert_eq!(method.encode(), "sM@3:1");
        assert_eq!(EvalScope::decode(&method.encode()), Some(method));
        assert_eq!(EvalScope::decode("f\n? x:v"), None);
        assert_eq!(EvalScope::decode("f\n- x:q"), None);
        assert_eq!(EvalScope::decode("f\n- x:v@z"), None);
        // Slots in order, and not too many of them.
        assert_eq!(EvalScope::decode("f\n- x:v@3,y:v@2"), None);
        assert!(EvalScope::decode(&format!("f\n- x:v@{}", MAX_SLOTS - 1)).is_some());
        assert_eq!(EvalScope::decode(&format!("f\n- x:v@{}\n- y:v", MAX_SLOTS - 1)), None);
    }
}
