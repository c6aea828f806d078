//! Recursive templates may not expand (`decisions.md` 2a, ECMA-335's
//! expanding-cycle rule).
//!
//! The graph has one node per type parameter of every template. Wherever D's
//! body uses E with a j-th argument that mentions D's i-th parameter, there
//! is an edge (D, i) -> (E, j), marked expanding when that argument is more
//! than the bare parameter. Every argument counts, whether or not E uses its
//! parameter j. A cycle through an expanding edge means instantiating D would
//! need ever larger types (`Tree<T>` holding `Tree<List<T>>`), so it is refused;
//! `Tree<T>` holding `List<Tree<T>>` passes `T` on unchanged and is fine.
//!
//! The check runs on the finite graph of templates, never expanding a body:
//! an expanding edge lies on a cycle exactly when both its ends are in one
//! strongly connected component. Components are found iteratively, so a long
//! chain of declarations cannot overflow the stack.

use std::collections::{BTreeMap, BTreeSet};

use super::model::*;
use super::walk::{template_slots, walk_with_path};
use super::write::term_text;
use crate::error::{Error, Path, Result, Rule};

struct Edge {
    from: usize,
    to: usize,
    /// Set for an expanding edge: what to say if it lies on a cycle.
    expanding: Option<Culprit>,
}

struct Culprit {
    /// The local id of the template whose body holds the use.
    user: String,
    /// The Named term passing the argument.
    at: Path,
    /// The argument's index and text, and the used template's name.
    j: usize,
    argument: String,
    target: String,
}

/// Refuses the first expanding edge (in declaration key order, then body
/// order) that lies on a cycle. Its place is the Named term that passes the
/// expanding argument. Expects terms that have passed the Param and Named
/// rules (out-of-range ones are ignored here, never indexed).
pub(crate) fn check_expanding(declarations: &Declarations) -> Result<()> {
    // Node numbering: the parameters of each generic template, consecutively.
    let mut base = BTreeMap::new();
    let mut nodes = 0usize;
    for (id, template) in declarations {
        if !template.generic.is_empty() {
            base.insert(id.as_str(), nodes);
            nodes += template.generic.len();
        }
    }
    if nodes == 0 {
        return Ok(());
    }

    let mut edges = Vec::new();
    for (id, template) in declarations {
        let Some(&from_base) = base.get(id.as_str()) else { continue };
        let own = template.generic.len();
        for (slot, term) in template_slots(template) {
            walk_with_path(term, &mut Vec::new(), &mut |t, segs| {
                let Term::Named { declaration, args } = t else { return };
                let (Some(&to_base), Some(target)) = (base.get(declaration.as_str()), declarations.get(declaration))
                else {
                    return;
                };
                for (j, arg) in args.iter().enumerate().take(target.generic.len()) {
                    let mut mentioned = BTreeSet::new();
                    arg.walk(&mut |x| {
                        if let Term::Param { owner, index } = x {
                            if owner == id && *index < own {
                                mentioned.insert(*index);
                            }
                        }
                    });
                    for i in mentioned {
                        let bare = matches!(arg, Term::Param { owner, index } if owner == id && *index == i);
                        let expanding = (!bare).then(|| {
                            let mut at = Path::root().key("declarations").key(id.as_str());
                            at.0.extend(slot.0.iter().cloned());
                            at.0.extend(segs.iter().cloned());
                            Culprit {
                                user: id.clone(),
                                at,
                                j,
                                argument: term_text(arg, declarations, &template.generic),
                                target: target.name.clone(),
                            }
                        });
                        edges.push(Edge { from: from_base + i, to: to_base + j, expanding });
                    }
                }
            });
        }
    }

    let mut adjacency = vec![Vec::new(); nodes];
    for edge in &edges {
        adjacency[edge.from].push(edge.to);
    }
    let component = components(&adjacency);
    for edge in &edges {
        let Some(Culprit { user, at, j, target, argument }) = &edge.expanding else { continue };
        if component[edge.from] != component[edge.to] {
            continue;
        }
        let name = declarations.get(user).map_or("", |t| t.name.as_str());
        return Err(Error::at(
            at.clone(),
            Rule::ExpandingRecursion,
            format!(
                "expanding recursion: {} passes {argument} as argument {j} of {target}, which leads back to {}; \
                 around a cycle a type parameter may only be passed on unchanged (Tree<T> may hold \
                 List<Tree<T>>, never Tree<List<T>>)",
                name, name
            ),
        ));
    }
    Ok(())
}

/// The strongly connected component of every node (Tarjan's algorithm with an
/// explicit stack).
fn components(adjacency: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = adjacency.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut component = vec![UNSEEN; n];
    let mut counter = 0;
    let mut components = 0;
    for start in 0..n {
        if index[start] != UNSEEN {
            continue;
        }
        // Frames of (node, next edge to look at).
        let mut calls = vec![(start, 0usize)];
        index[start] = counter;
        low[start] = counter;
        counter += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&(v, next)) = calls.last() {
            if let Some(&w) = adjacency[v].get(next) {
                if let Some(frame) = calls.last_mut() {
                    frame.1 += 1;
                }
                if index[w] == UNSEEN {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = components;
                    if w == v {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn components_of_a_small_graph() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3, 3 -> 3, 4 alone.
        let c = components(&[vec![1], vec![2], vec![0, 3], vec![3], vec![]]);
        assert_eq!(c[0], c[1]);
        assert_eq!(c[1], c[2]);
        assert_ne!(c[2], c[3]);
        assert_ne!(c[3], c[4]);
    }

    #[test]
    fn a_long_chain_does_not_recurse() {
        let n = 200_000;
        let adjacency: Vec<Vec<usize>> = (0..n).map(|i| vec![(i + 1) % n]).collect();
        let c = components(&adjacency);
        assert!(c.iter().all(|&x| x == c[0]));
    }
}
