//! Rewrites loops whose body can match the empty string into equivalent loops whose body
//! cannot, to keep clear of a regress bug.
//!
//! regress resets a loop's iteration count when it enters the loop without saving the old
//! count for backtracking. When a loop sits inside another loop, a later activation then
//! clobbers the state of an earlier one that backtracking returns to; with a body that
//! can match empty, the empty-iteration check stops working and the matcher loops forever
//! while its backtrack stack grows (`/(?:(?:s*)*!)*\d/` on `"s!"`). With a body that
//! always consumes and no count to respect (min 0, max unbounded) the lost state does not
//! matter.
//!
//! The rewrite follows RepeatMatcher (22.2.2.3.1): once the minimum count is reached, an
//! iteration that matches empty fails. So with min 0, `B{0,n}` matches exactly what
//! `NE(B){0,n}` does, where NE(B) is B restricted to its non-empty matches, in B's order
//! and with B's captures. NE is computed for the common shapes (optional or repeated
//! atoms, alternations, groups, one consuming term among assertions); other loops are
//! left alone. A loop with min ≥ 1 and no capture group becomes `B{m}NE(B){0,n-m}`.

use super::ast::{Class, Node};

/// The empty class: matches nothing.
fn never() -> Node {
    Node::Class(Class::Items { negated: false, items: Vec::new() })
}

/// A node that never matches but keeps the capture groups of `orig`: groups are numbered
/// by position, so they must all stay in the emitted pattern.
fn never_like(orig: &Node) -> Node {
    if has_capture(orig) {
        Node::Cat(vec![never(), orig.clone()])
    } else {
        never()
    }
}

fn is_never(node: &Node) -> bool {
    match node {
        Node::Class(Class::Items { negated: false, items }) => items.is_empty(),
        Node::Cat(nodes) => nodes.first().is_some_and(is_never),
        _ => false,
    }
}

/// A loop that runs zero times: matches empty, keeps (undefined) the groups of `body`.
fn zero_iterations(body: &Node) -> Node {
    if has_capture(body) {
        Node::Repeat { body: Box::new(body.clone()), min: 0, max: Some(0), greedy: true }
    } else {
        Node::Empty
    }
}

/// True if the node never consumes a character (assertions and empty).
fn zero_width(node: &Node) -> bool {
    match node {
        Node::Empty | Node::LineStart | Node::LineEnd | Node::WordBoundary { .. } | Node::Look { .. } => true,
        Node::Group { body, .. } | Node::Modifiers { body, .. } => zero_width(body),
        Node::Cat(nodes) | Node::Alt(nodes) => nodes.iter().all(zero_width),
        Node::Repeat { body, max, .. } => *max == Some(0) || zero_width(body),
        _ => false,
    }
}

/// True if the node can match the empty string.
pub(super) fn nullable(node: &Node) -> bool {
    match node {
        Node::Empty
        | Node::LineStart
        | Node::LineEnd
        | Node::WordBoundary { .. }
        | Node::Look { .. }
        | Node::BackRef(_)
        | Node::NamedRef(_) => true,
        Node::Char(_) | Node::Dot => false,
        Node::Class(Class::Items { .. }) => false,
        // A v-mode class may hold the empty string; assume it may.
        Node::Class(Class::Set(_)) => true,
        Node::Group { body, .. } | Node::Modifiers { body, .. } => nullable(body),
        Node::Repeat { body, min, .. } => *min == 0 || nullable(body),
        Node::Cat(nodes) => nodes.iter().all(nullable),
        Node::Alt(nodes) => nodes.iter().any(nullable),
    }
}

fn has_capture(node: &Node) -> bool {
    match node {
        Node::Group { capture: Some(_), .. } => true,
        Node::Group { body, .. }
        | Node::Modifiers { body, .. }
        | Node::Look { body, .. }
        | Node::Repeat { body, .. } => has_capture(body),
        Node::Cat(nodes) | Node::Alt(nodes) => nodes.iter().any(has_capture),
        _ => false,
    }
}

/// NE(node): the node's non-empty matches, in its order; `never()` if it has none; None
/// when not computed for this shape.
fn non_empty(node: &Node) -> Option<Node> {
    if !nullable(node) {
        return Some(node.clone());
    }
    if zero_width(node) {
        return Some(never_like(node));
    }
    match node {
        Node::Group { capture, body } => {
            let inner = non_empty(body)?;
            Some(if is_never(&inner) {
                never_like(node)
            } else {
                Node::Group { capture: *capture, body: Box::new(inner) }
            })
        }
        Node::Modifiers { add, remove, body } => {
            let inner = non_empty(body)?;
            Some(if is_never(&inner) {
                never_like(node)
            } else {
                Node::Modifiers { add: *add, remove: *remove, body: Box::new(inner) }
            })
        }
        // With min 0 every iteration already consumes (RepeatMatcher), so the non-empty
        // matches are those with at least one iteration of NE(body).
        Node::Repeat { body, min: 0, max, greedy } => {
            let inner = non_empty(body)?;
            if is_never(&inner) || *max == Some(0) {
                return Some(never_like(node));
            }
            Some(Node::Repeat { body: Box::new(inner), min: 1, max: *max, greedy: *greedy })
        }
        Node::Alt(nodes) => {
            // Branches without non-empty matches stay (as never-matching) for their groups.
            let out = nodes.iter().map(non_empty).collect::<Option<Vec<Node>>>()?;
            Some(if out.iter().all(is_never) { never_like(node) } else { Node::Alt(out) })
        }
        Node::Cat(nodes) => non_empty_cat(nodes),
        _ => None,
    }
}

/// NE of a concatenation. Assertions keep their place. When the first consuming term `x`
/// is a min-0 loop, its empty match (zero iterations) has no effect and comes last in its
/// order if greedy (first if lazy), so
/// `NE(x T) = NE(x) T | NE(T)` (greedy) or `NE(T) | NE(x) T` (lazy). T is written twice,
/// so it may not hold capture groups, and the length is capped.
fn non_empty_cat(nodes: &[Node]) -> Option<Node> {
    if !nodes.iter().all(nullable) {
        return Some(Node::Cat(nodes.to_vec()));
    }
    let Some(k) = nodes.iter().position(|n| !zero_width(n)) else {
        return Some(never_like(&Node::Cat(nodes.to_vec())));
    };
    let (prefix, rest) = nodes.split_at(k);
    let (first, tail) = (&rest[0], &rest[1..]);
    let with_prefix = |node: Node| {
        let mut out = prefix.to_vec();
        out.push(node);
        Node::Cat(out)
    };
    if tail.iter().all(zero_width) {
        let ne = non_empty(first)?;
        if is_never(&ne) {
            return Some(never_like(&Node::Cat(nodes.to_vec())));
        }
        let mut out = prefix.to_vec();
        out.push(ne);
        out.extend_from_slice(tail);
        return Some(Node::Cat(out));
    }
    let Node::Repeat { min: 0, greedy, .. } = first else {
        return None;
    };
    if rest.len() > 8 || tail.iter().any(has_capture) {
        return None;
    }
    let ne_first = non_empty(first)?;
    let ne_tail = non_empty_cat(tail)?;
    // `first` appears once, in the branch where it consumes (possibly never-matching).
    let mut first_consumes = vec![ne_first];
    first_consumes.extend_from_slice(tail);
    let first_consumes = Node::Cat(first_consumes);
    let ordered = if *greedy { vec![first_consumes, ne_tail] } else { vec![ne_tail, first_consumes] };
    Some(with_prefix(Node::Alt(ordered)))
}

/// Rewrites every loop with a nullable body that NE can fix, innermost first.
pub(super) fn rewrite_empty_loops(node: &mut Node) {
    match node {
        Node::Look { body, .. } | Node::Group { body, .. } | Node::Modifiers { body, .. } => rewrite_empty_loops(body),
        Node::Cat(nodes) | Node::Alt(nodes) => nodes.iter_mut().for_each(rewrite_empty_loops),
        Node::Repeat { body, min, max, greedy } => {
            rewrite_empty_loops(body);
            if !nullable(body) {
                return;
            }
            if zero_width(body) {
                // Past the minimum, every iteration is empty and fails: exactly min remain.
                *node = match *min {
                    0 => zero_iterations(body),
                    1 => (**body).clone(),
                    m => Node::Repeat { body: body.clone(), min: m, max: Some(m), greedy: *greedy },
                };
                return;
            }
            let Some(ne) = non_empty(body) else {
                return;
            };
            if *min == 0 {
                if is_never(&ne) {
                    // Only zero iterations remain: nothing is matched, nothing captured.
                    *node = zero_iterations(body);
                } else {
                    **body = ne;
                }
            } else if !has_capture(body) && *max != Some(*min) {
                // B{m,n} = B{m} NE(B){0,n-m}: the first m iterations may be empty.
                let rest_max = max.map(|n| n - *min);
                let first = if *min == 1 {
                    (**body).clone()
                } else {
                    Node::Repeat { body: body.clone(), min: *min, max: Some(*min), greedy: *greedy }
                };
                let rest = if is_never(&ne) {
                    Node::Empty
                } else {
                    Node::Repeat { body: Box::new(ne), min: 0, max: rest_max, greedy: *greedy }
                };
                *node = Node::Cat(vec![first, rest]);
            }
        }
        _ => {}
    }
}
