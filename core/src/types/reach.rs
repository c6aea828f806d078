//! Reachability (host-boundary.md, "Type descriptions"): a description holds
//! exactly the declarations its roots reach, following Named arguments,
//! Function parameters and results, Task items and declaration members. A
//! disconnected extra declaration is invalid; a TypeSpec for one Tool is
//! exactly its roots' closure.

use std::collections::BTreeSet;

use super::model::*;
use super::walk::template_terms;
use crate::error::{Error, Path, Result, Rule};

/// A Tool's roots: its parameters' types, then ok and err.
pub(crate) fn tool_roots(tool: &ToolDecl) -> impl Iterator<Item = &Term> {
    tool.params.iter().map(|p| &p.ty).chain([&tool.ok, &tool.err])
}

/// A TypeSpec's roots.
pub(crate) fn spec_roots(spec: &TypeSpec) -> impl Iterator<Item = &Term> {
    spec.params.iter().map(|p| &p.ty).chain([&spec.ok, &spec.err])
}

/// A call view's roots: its bindings' terms, its parameters' types, ok, err.
pub(crate) fn view_roots(view: &CallView) -> impl Iterator<Item = &Term> {
    view.bindings.iter().map(|(_, t)| t).chain(view.params.iter().map(|p| &p.ty)).chain([&view.ok, &view.err])
}

/// The local ids of the declarations `roots` reach. References that do not
/// resolve are skipped (they are `Rule::Unresolved`, checked elsewhere). Each
/// template is visited once, so recursive types cost nothing extra.
pub fn reachable<'a>(declarations: &'a Declarations, roots: impl IntoIterator<Item = &'a Term>) -> BTreeSet<&'a str> {
    let mut seen = BTreeSet::new();
    let mut pending: Vec<&'a Template> = Vec::new();
    let visit = |term: &Term, seen: &mut BTreeSet<&'a str>, pending: &mut Vec<&'a Template>| {
        term.walk(&mut |t| {
            if let Term::Named { declaration, .. } = t {
                if let Some((id, template)) = declarations.get_key_value(declaration) {
                    if seen.insert(id.as_str()) {
                        pending.push(template);
                    }
                }
            }
        })
    };
    for root in roots {
        visit(root, &mut seen, &mut pending);
    }
    while let Some(template) = pending.pop() {
        template_terms(template, &mut |t| visit(t, &mut seen, &mut pending));
    }
    seen
}

/// Refuses the first declaration (in key order) that `roots` do not reach, at
/// `$.declarations["ID"]`.
pub(crate) fn check_connected<'a>(
    declarations: &'a Declarations,
    roots: impl IntoIterator<Item = &'a Term>,
) -> Result<()> {
    let reached = reachable(declarations, roots);
    match declarations.iter().find(|(id, _)| !reached.contains(id.as_str())) {
        None => Ok(()),
        Some((id, template)) => Err(Error::at(
            Path::root().key("declarations").key(id.as_str()),
            Rule::Disconnected,
            format!("declaration {} ({}) is not reachable from the roots", id, template.identity),
        )),
    }
}

impl TypeSpec {
    /// The TypeSpec of one Tool of a (valid) listing: its generic names,
    /// parameters and result terms, and exactly the declarations they reach,
    /// under the listing's local ids. `None` when the listing has no such Tool.
    pub fn for_tool(listing: &Listing, tool: &str) -> Option<TypeSpec> {
        let decl = listing.tool(tool)?;
        let keep = reachable(&listing.declarations, tool_roots(decl));
        // From what is reached, not a pass over every declaration: a
        // listing's TypeSpecs together cost what its Tools reach.
        let declarations = keep
            .iter()
            .filter_map(|id| listing.declarations.get_key_value(*id))
            .map(|(id, t)| (id.clone(), t.clone()))
            .collect();
        Some(TypeSpec {
            generic: decl.generic.clone(),
            params: decl.params.clone(),
            ok: decl.ok.clone(),
            err: decl.err.clone(),
            declarations,
        })
    }
}
