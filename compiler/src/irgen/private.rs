//! Private members: `obj.#x` reads, writes and calls, `#x in obj`.
//!
//! A private name resolves (like an identifier) to the declaration of its class body
//! (`ScopeTree::private` says what it names):
//! ```text
//! field     obj.#x       privateGet(obj, #x)          obj.#x = v   privateSet(obj, #x, v)
//! method    obj.#m       privateGet(obj, %brand); #m  obj.#m = v   brand check; TypeError
//! accessor  obj.#a       brand check; call #a(obj)    obj.#a = v   brand check; call %set#a(obj, v)
//! #x in obj              privateIn(#x or %brand, obj)
//! ```

use ir::{ErrorKind, Imm, Opcode, Value};
use swc_ecma_ast::PrivateName;

use super::Gen;
use crate::frontend::scope::{DeclId, PrivateInfo, PrivateKind};
use bytecode::BuiltinId;

impl<'a> Gen<'a> {
    /// The declaration of `#x` and what it names (reported when it does not resolve, which
    /// the scope analysis has already made an early error).
    fn private_decl(&mut self, p: &PrivateName) -> Option<(DeclId, PrivateInfo)> {
        let name = format!("#{}", p.name);
        let found = self.resolve(&name).and_then(|d| self.tree.private.get(&d).map(|info| (d, *info)));
        if found.is_none() {
            let d = self.lines.diag(p.span, format!("Private field '{name}' must be declared in an enclosing class"));
            self.diags.push(d);
        }
        found
    }

    /// Throws unless `obj` carries the brand of private methods `info`.
    fn brand_check(&mut self, obj: Value, info: &PrivateInfo) {
        if let Some(b) = info.brand {
            let brand = self.load_decl(b);
            self.call_builtin(BuiltinId::PrivateGet, vec![obj, brand]);
        }
    }

    /// `obj.#x`.
    pub(super) fn private_get(&mut self, obj: Value, p: &PrivateName) -> Value {
        let Some((d, info)) = self.private_decl(p) else { return self.undef() };
        self.at(p.span);
        match info.kind {
            PrivateKind::Field => {
                let sym = self.load_decl(d);
                self.call_builtin(BuiltinId::PrivateGet, vec![obj, sym])
            }
            PrivateKind::Method => {
                self.brand_check(obj, &info);
                self.load_decl(d)
            }
            PrivateKind::Accessor { getter, .. } => {
                self.brand_check(obj, &info);
                if !getter {
                    self.throw_error(ErrorKind::TypeError, &format!("'#{}' was defined without a getter", p.name));
                    return self.undef();
                }
                let g = self.load_decl(d);
                self.emit(Opcode::Call, vec![g, obj], Imm::None)
            }
        }
    }

    /// `obj.#x = v`.
    pub(super) fn private_set(&mut self, obj: Value, p: &PrivateName, v: Value) {
        let Some((d, info)) = self.private_decl(p) else { return };
        self.at(p.span);
        match info.kind {
            PrivateKind::Field => {
                let sym = self.load_decl(d);
                self.call_builtin(BuiltinId::PrivateSet, vec![obj, sym, v]);
            }
            PrivateKind::Method => {
                self.brand_check(obj, &info);
                self.throw_error(ErrorKind::TypeError, &format!("Private method '#{}' is not writable", p.name));
            }
            PrivateKind::Accessor { setter, .. } => {
                self.brand_check(obj, &info);
                match setter {
                    Some(s) => {
                        let f = self.load_decl(s);
                        self.emit(Opcode::Call, vec![f, obj, v], Imm::None);
                    }
                    None => {
                        self.throw_error(ErrorKind::TypeError, &format!("'#{}' was defined without a setter", p.name))
                    }
                }
            }
        }
    }

    /// `#x in obj`.
    pub(super) fn private_in(&mut self, p: &PrivateName, obj: Value) -> Value {
        let Some((d, info)) = self.private_decl(p) else { return self.undef() };
        self.at(p.span);
        let key = match (info.kind, info.brand) {
            (PrivateKind::Field, _) | (_, None) => self.load_decl(d),
            (_, Some(b)) => self.load_decl(b),
        };
        self.call_builtin(BuiltinId::PrivateIn, vec![key, obj])
    }
}
