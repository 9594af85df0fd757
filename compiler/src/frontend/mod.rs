//! Front end: parsing JavaScript with swc, source positions, syntax diagnostics, early errors
//! swc does not report, and scope analysis.
//!
//! ```text
//!  source ─ nesting.rs (a bound on the depth, before swc recurses) ─ parse.rs (swc, script
//!         goal) ─▶ swc AST + LineTable
//!         ─ scope.rs, one walk ─▶ ScopeTree: every declaration, which are captured by closures
//!              └ early_errors.rs, called at each node ─▶ the diagnostics swc leaves out
//!                (redeclarations, labels, escapes, `super`, ...)
//!         ─▶ irgen lowers the AST to HIR using the ScopeTree
//! ```
//! The compiler never panics on input: every problem with the source becomes a `Diagnostic`
//! with a 1-based line and a 1-based column counted in UTF-16 code units.

pub mod early_errors;
pub mod eval;
pub mod module;
pub mod nesting;
pub mod parse;
pub mod scope;

pub use parse::{parse_eval, parse_module, parse_script, LineTable, ParsedModule, ParsedScript};

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
            // The characters before the column, and the line from the column on; a long line
            // (minified code, a generated program) shows only what is near the column.
            let mut units = 0u32;
            let split = text
                .char_indices()
                .find(|&(_, ch)| {
                    let at = units + 1 >= self.col;
                    units += ch.len_utf16() as u32;
                    at
                })
                .map_or(text.len(), |(i, _)| i);
            let (before, after) = text.split_at(split);
            let before_start = before.char_indices().rev().nth(CONTEXT_BEFORE - 1).map_or(0, |(i, _)| i);
            let after_end = after.char_indices().nth(CONTEXT_AFTER).map_or(after.len(), |(i, _)| i);
            let (lead, trail) =
                (if before_start > 0 { "..." } else { "" }, if after_end < after.len() { "..." } else { "" });
            let shown = &before[before_start..];
            out.push('\n');
            out.push_str(lead);
            out.push_str(shown);
            out.push_str(&after[..after_end]);
            out.push_str(trail);
            out.push('\n');
            // The caret sits under the column; tabs in the prefix are kept so it lines up.
            out.push_str(&" ".repeat(lead.len()));
            out.extend(shown.chars().map(|ch| if ch == '\t' { '\t' } else { ' ' }));
            out.push('^');
        }
        out
    }
}

/// Characters of the source line shown before and after a diagnostic's column.
const CONTEXT_BEFORE: usize = 80;
const CONTEXT_AFTER: usize = 40;

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

    #[test]
    fn render_shows_the_part_of_a_long_line_near_the_column() {
        let src = format!("{}@{}", "a".repeat(1000), "b".repeat(1000));
        let d = Diagnostic::new("bad", 1, 1001);
        let want =
            format!("a.js:1:1001: SyntaxError: bad\n...{}@{}...\n{}^", "a".repeat(80), "b".repeat(39), " ".repeat(83));
        assert_eq!(d.render("a.js", &src), want);
    }
}
