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
//!         h super.x allowed, c super() allowed, d derived constructor, m module code)
//!  one line per environment, innermost first: "V" (the function's var scope) or "-",
//!    a space, then name:kind,... in slot order (kind v var, l let, c const, m import,
//!    i internal: `this` and the other `%` names, or a function expression's own name)
//! ```
//! (A function with direct eval does not map its arguments object to its parameters, so
//! they stay in its environment: `arguments[0] = 1` in sloppy code does not change the first
//! parameter there, a known gap.)

use ir::VarKind;

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
    /// In a derived constructor: `this` is in its TDZ until `super()` returns.
    pub derived: bool,
    /// Module code (`this` is undefined at the top level).
    pub module: bool,
    /// The heap environments, innermost first.
    pub levels: Vec<EvalLevel>,
}

/// One environment of the caller's chain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalLevel {
    /// The calling function's var scope (where `%evalvars` is).
    pub var_scope: bool,
    /// The variables, in slot order.
    pub vars: Vec<(String, VarKind)>,
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
            (self.derived, 'd'),
            (self.module, 'm'),
        ] {
            if on {
                out.push(c);
            }
        }
        for level in &self.levels {
            out.push('\n');
            out.push(if level.var_scope { 'V' } else { '-' });
            out.push(' ');
            let vars: Vec<String> = level.vars.iter().map(|(n, k)| format!("{n}:{}", kind_letter(*k))).collect();
            out.push_str(&vars.join(","));
        }
        out
    }

    /// Reads the text form; `None` if it is malformed (only a hostile bundle makes one).
    pub fn decode(text: &str) -> Option<EvalScope> {
        let mut lines = text.split('\n');
        let flags = lines.next()?;
        let has = |c| flags.contains(c);
        let mut scope = EvalScope {
            strict: has('s'),
            in_function: has('f'),
            in_params: has('p'),
            new_target: has('n'),
            super_prop: has('h'),
            super_call: has('c'),
            derived: has('d'),
            module: has('m'),
            ..EvalScope::default()
        };
        for line in lines {
            let (mark, rest) = line.split_once(' ')?;
            let entries = rest.split(',').filter(|e| !e.is_empty());
            if mark != "V" && mark != "-" {
                return None;
            }
            let mut vars = Vec::new();
            for e in entries {
                let (n, k) = e.rsplit_once(':')?;
                vars.push((n.to_string(), letter_kind(k)?));
            }
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
            levels: vec![
                EvalLevel { var_scope: false, vars: vec![("x".into(), VarKind::Let)] },
                EvalLevel {
                    var_scope: true,
                    vars: vec![("this".into(), VarKind::Internal), ("new.target".into(), VarKind::Internal)],
                },
                EvalLevel { var_scope: false, vars: vec![] },
            ],
            ..EvalScope::default()
        };
        assert_eq!(EvalScope::decode(&s.encode()), Some(s));
        assert_eq!(EvalScope::decode("f\n? x:v"), None);
        assert_eq!(EvalScope::decode("f\n- x:q"), None);
    }
}
