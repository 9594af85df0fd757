//! Front end: parsing JavaScript with swc, source positions, syntax diagnostics, early errors
//! swc does not report, and scope analysis.
//!
//! ```text
//!  source ─ parse.rs (swc, script goal) ─▶ swc AST + LineTable
//!         ─ scope.rs, one walk ─▶ ScopeTree: every declaration, which are captured by closures
//!              └ early_errors.rs, called at each node ─▶ the diagnostics swc leaves out
//!                (redeclarations, labels, escapes, `super`, ...)
//!         ─▶ irgen lowers the AST to HIR using the ScopeTree
//! ```
//! The compiler never panics on input: every problem with the source becomes a `Diagnostic`
//! with a 1-based line and a 1-based column counted in UTF-16 code units.

pub mod early_errors;
pub mod parse;
pub mod scope;

pub use parse::{parse_script, LineTable, ParsedScript};

/// A compile-time error at a source position, rendered as a `SyntaxError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The message, without the `SyntaxError: ` prefix.
    pub message: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column in UTF-16 code units.
    pub col: u32,
}

impl Diagnostic {
    /// A diagnostic at `line`:`col`.
    pub fn new(message: impl Into<String>, line: u32, col: u32) -> Diagnostic {
        Diagnostic { message: message.into(), line, col }
    }

    /// `app.js:3:14: SyntaxError: message`, the source line and a caret under the column.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let mut out = format!("{}:{}:{}: SyntaxError: {}", file_name, self.line, self.col, self.message);
        if let Some(text) = LineTable::new(source).line_text(source, self.line) {
            out.push('\n');
            out.push_str(text);
            out.push('\n');
            // The caret sits under the column; tabs in the prefix are kept so it lines up.
            let mut units = 0u32;
            for ch in text.chars() {
                if units + 1 >= self.col {
                    break;
                }
                out.push(if ch == '\t' { '\t' } else { ' ' });
                units += ch.len_utf16() as u32;
            }
            out.push('^');
        }
        out
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: SyntaxError: {}", self.line, self.col, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_points_at_the_column() {
        let src = "let a = 1;\nlet b = @;\n";
        let d = Diagnostic::new("Unexpected character '@'", 2, 9);
        assert_eq!(d.render("app.js", src), "app.js:2:9: SyntaxError: Unexpected character '@'\nlet b = @;\n        ^");
    }

    #[test]
    fn render_keeps_tabs() {
        let src = "\tx = @";
        let d = Diagnostic::new("bad", 1, 6);
        assert_eq!(d.render("a.js", src), "a.js:1:6: SyntaxError: bad\n\tx = @\n\t    ^");
    }
}
