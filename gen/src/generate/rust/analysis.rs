//! Facts about the declarations that decide their Rust shape, computed once
//! over the whole listing. Each is a fixpoint over the declaration graph,
//! found with a worklist (a declaration is looked at again only when one it
//! names changed), and the inline reach is the graph's strongly connected
//! components: the cost grows with the listing, not its square.
//!
//! - which type parameters a declaration uses: an unused one (Flow allows a
//!   nominal argument that no value holds) is held by a `PhantomData` marker,
//!   since Rust refuses an unused parameter, and bounds nothing;
//! - which parameters must be `Ord` for the declaration to be decoded (they
//!   reach a Set element or a Dict key, where `BTreeSet` and `BTreeMap` need it);
//! - which comparison traits each declaration can have ([`Traits`]): a
//!   greatest fixpoint over the substituted graph, where `D<X>` has a trait
//!   when `D` has it with its parameters bounded by it and every argument
//!   `D` uses has it (a host token has no order, a generic Tool's JSON
//!   carrier no comparison at all);
//! - which fields hold their own declaration inline (not behind a `Vec`,
//!   `BTreeSet` or `BTreeMap`), and so need a `Box` to have a size;
//! - which declarations values can reach from the Tools, which are the ones
//!   generated.

use std::collections::{BTreeMap, BTreeSet};

use flow_core::types::{Body, Declarations, Payload, Prim, Template, Term, ToolDecl};

pub struct Facts<'a> {
    declarations: &'a Declarations,
    used: BTreeMap<&'a str, Vec<bool>>,
    needs_ord: BTreeMap<&'a str, Vec<bool>>,
    traits: BTreeMap<&'a str, Traits>,
    inline_params: BTreeMap<&'a str, Vec<bool>>,
    /// Each declaration's strongly connected component of the graph of
    /// declarations held inline: one holds another inline, transitively,
    /// and is held by it, exactly when both are in one component.
    inline_component: BTreeMap<&'a str, usize>,
    /// Record and enum declarations reachable by values, in lexical order.
    pub generated: Vec<&'a str>,
    /// Host token declarations reachable by values, in lexical order.
    pub hosts: Vec<&'a str>,
}

/// The terms of a declaration's members: field types and payload parts.
pub fn member_terms(template: &Template) -> Vec<&Term> {
    match &template.body {
        Body::Record { fields } => fields.iter().map(|f| &f.ty).collect(),
        Body::Enum { constructors } => constructors
            .iter()
            .flat_map(|c| match &c.payload {
                None => Vec::new(),
                Some(Payload::Positional(parts)) => parts.iter().collect(),
                Some(Payload::Named(fields)) => fields.iter().map(|f| &f.ty).collect(),
            })
            .collect(),
        Body::Host | Body::Nondata => Vec::new(),
    }
}

fn own_param(term: &Term, owner: &str) -> Option<usize> {
    match term {
        Term::Param { owner: o, index } if o == owner => Some(*index),
        _ => None,
    }
}

impl<'a> Facts<'a> {
    pub fn new(declarations: &'a Declarations, tools: &'a [ToolDecl]) -> Facts<'a> {
        let unset = || -> BTreeMap<&'a str, Vec<bool>> {
            declarations.iter().map(|(id, t)| (id.as_str(), vec![false; t.generic.len()])).collect()
        };
        let mut facts = Facts {
            declarations,
            used: unset(),
            needs_ord: unset(),
            traits: declarations.iter().map(|(id, t)| (id.as_str(), Traits::of_body(&t.body))).collect(),
            inline_params: unset(),
            inline_component: BTreeMap::new(),
            generated: Vec::new(),
            hosts: Vec::new(),
        };
        facts.fix(|facts, id, term, changed| facts.mark_used(id, term, changed));
        facts.fix(|facts, id, term, changed| facts.mark_ord(id, term, false, changed));
        facts.fix(|facts, id, term, changed| facts.mark_inline(id, term, changed));
        facts.fix(|facts, id, term, changed| facts.narrow_traits(id, term, changed));
        facts.close_inline_reach();
        facts.reach_from(tools);
        facts
    }

    /// Runs `step` over the member terms of every declaration until nothing
    /// changes. A step changes only the facts of the declaration it is given,
    /// which only the declarations naming it read: those are looked at again.
    fn fix(&mut self, step: impl Fn(&mut Facts<'a>, &'a str, &'a Term, &mut bool)) {
        let declarations = self.declarations;
        let mut named_by: BTreeMap<&'a str, BTreeSet<&'a str>> = BTreeMap::new();
        for (id, template) in declarations {
            for term in member_terms(template) {
                term.walk(&mut |t| {
                    if let Term::Named { declaration, .. } = t {
                        if let Some((named, _)) = declarations.get_key_value(declaration) {
                            named_by.entry(named.as_str()).or_default().insert(id.as_str());
                        }
                    }
                });
            }
        }
        let mut queued: BTreeSet<&'a str> = declarations.keys().map(String::as_str).collect();
        let mut work: Vec<&'a str> = queued.iter().rev().copied().collect();
        while let Some(id) = work.pop() {
            queued.remove(id);
            let mut changed = false;
            for term in member_terms(&declarations[id]) {
                step(self, id, term, &mut changed);
            }
            if changed {
                for &dependent in named_by.get(id).into_iter().flatten() {
                    if queued.insert(dependent) {
                        work.push(dependent);
                    }
                }
            }
        }
    }

    fn set(map: &mut BTreeMap<&'a str, Vec<bool>>, id: &str, index: usize, changed: &mut bool) {
        if let Some(slot) = map.get_mut(id).and_then(|v| v.get_mut(index)) {
            if !*slot {
                *slot = true;
                *changed = true;
            }
        }
    }

    fn flag(map: &BTreeMap<&'a str, Vec<bool>>, id: &str, index: usize) -> bool {
        map.get(id).and_then(|v| v.get(index)).copied().unwrap_or(false)
    }

    /// Whether parameter `index` of declaration `id` appears in a value of it.
    pub fn used(&self, id: &str, index: usize) -> bool {
        Self::flag(&self.used, id, index)
    }

    /// Whether decoding declaration `id` needs its parameter `index` to be `Ord`.
    pub fn needs_ord(&self, id: &str, index: usize) -> bool {
        Self::flag(&self.needs_ord, id, index)
    }

    /// The traits declaration `id` has when its parameters have them.
    pub fn traits(&self, id: &str) -> Traits {
        self.traits.get(id).copied().unwrap_or(Traits::ALL)
    }

    /// Value positions: not inside a function or a Task.
    fn mark_used(&mut self, id: &'a str, term: &'a Term, changed: &mut bool) {
        match term {
            Term::Param { .. } => {
                if let Some(i) = own_param(term, id) {
                    Self::set(&mut self.used, id, i, changed);
                }
            }
            Term::List(t) | Term::Set(t) | Term::Option(t) => self.mark_used(id, t, changed),
            Term::Dict(k, v) => {
                self.mark_used(id, k, changed);
                self.mark_used(id, v, changed);
            }
            Term::Tuple(items) => items.iter().for_each(|t| self.mark_used(id, t, changed)),
            Term::Named { declaration, args } => {
                for (j, arg) in args.iter().enumerate() {
                    if self.used(declaration, j) {
                        self.mark_used(id, arg, changed);
                    }
                }
            }
            Term::Prim(_) | Term::Function { .. } | Term::Task(_) => {}
        }
    }

    /// `ordered`: the term is (inside) a Set element or a Dict key, or an
    /// argument that must be `Ord`.
    fn mark_ord(&mut self, id: &'a str, term: &'a Term, ordered: bool, changed: &mut bool) {
        match term {
            Term::Param { .. } => {
                if let (Some(i), true) = (own_param(term, id), ordered) {
                    Self::set(&mut self.needs_ord, id, i, changed);
                }
            }
            Term::List(t) | Term::Option(t) => self.mark_ord(id, t, ordered, changed),
            Term::Set(t) => self.mark_ord(id, t, true, changed),
            Term::Dict(k, v) => {
                self.mark_ord(id, k, true, changed);
                self.mark_ord(id, v, ordered, changed);
            }
            Term::Tuple(items) => items.iter().for_each(|t| self.mark_ord(id, t, ordered, changed)),
            Term::Named { declaration, args } => {
                for (j, arg) in args.iter().enumerate() {
                    if self.used(declaration, j) {
                        let ordered = ordered || self.needs_ord(declaration, j);
                        self.mark_ord(id, arg, ordered, changed);
                    }
                }
            }
            Term::Prim(_) | Term::Function { .. } | Term::Task(_) => {}
        }
    }

    /// Inline positions: the term itself, Option payloads, tuple items, and
    /// arguments a declaration holds inline. A `Vec`, `BTreeSet` or
    /// `BTreeMap` holds its items on the heap.
    fn mark_inline(&mut self, id: &'a str, term: &'a Term, changed: &mut bool) {
        match term {
            Term::Param { .. } => {
                if let Some(i) = own_param(term, id) {
                    Self::set(&mut self.inline_params, id, i, changed);
                }
            }
            Term::Option(t) => self.mark_inline(id, t, changed),
            Term::Tuple(items) => items.iter().for_each(|t| self.mark_inline(id, t, changed)),
            Term::Named { declaration, args } => {
                for (j, arg) in args.iter().enumerate() {
                    if self.holds_inline(declaration, j) {
                        self.mark_inline(id, arg, changed);
                    }
                }
            }
            _ => {}
        }
    }

    fn holds_inline(&self, id: &str, index: usize) -> bool {
        self.used(id, index) && Self::flag(&self.inline_params, id, index)
    }

    fn narrow_traits(&mut self, id: &'a str, term: &'a Term, changed: &mut bool) {
        let had = self.traits(id);
        let has = had.and(self.term_traits(term));
        if has != had {
            self.traits.insert(id, has);
            *changed = true;
        }
    }

    /// The traits the Rust type of a declaration's member `term` has, the
    /// declaration's own type parameters having them all (its impls are
    /// bounded by them). Every Param of a member is its declaration's,
    /// whatever the declaration's local id is called (it may be `tool`).
    pub fn term_traits(&self, term: &Term) -> Traits {
        match term {
            Term::List(t) | Term::Set(t) | Term::Option(t) => self.term_traits(t),
            Term::Dict(k, v) => self.term_traits(k).and(self.term_traits(v)),
            Term::Tuple(items) => items.iter().fold(Traits::ALL, |all, t| all.and(self.term_traits(t))),
            Term::Named { declaration, args } => args
                .iter()
                .enumerate()
                .filter(|(j, _)| self.used(declaration, *j))
                .fold(self.traits(declaration), |all, (_, a)| all.and(self.term_traits(a))),
            Term::Prim(_) | Term::Param { .. } | Term::Function { .. } | Term::Task(_) => Traits::ALL,
        }
    }

    /// The declarations a term holds inline, not looking into them.
    fn inline_named(&self, term: &'a Term, out: &mut BTreeSet<&'a str>) {
        match term {
            Term::Option(t) => self.inline_named(t, out),
            Term::Tuple(items) => items.iter().for_each(|t| self.inline_named(t, out)),
            Term::Named { declaration, args } => {
                out.insert(declaration.as_str());
                for (j, arg) in args.iter().enumerate() {
                    if self.holds_inline(declaration, j) {
                        self.inline_named(arg, out);
                    }
                }
            }
            _ => {}
        }
    }

    /// The strongly connected components of the inline graph (Tarjan's
    /// algorithm, iterative: a chain of thousands of records is no deeper
    /// on the stack than one).
    fn close_inline_reach(&mut self) {
        let ids: Vec<&'a str> = self.declarations.keys().map(String::as_str).collect();
        let index_of: BTreeMap<&str, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
        let edges: Vec<Vec<usize>> = ids
            .iter()
            .map(|id| {
                let mut direct = BTreeSet::new();
                for term in member_terms(&self.declarations[*id]) {
                    self.inline_named(term, &mut direct);
                }
                direct.iter().filter_map(|d| index_of.get(d).copied()).collect()
            })
            .collect();
        let components = strongly_connected(&edges);
        self.inline_component = ids.iter().zip(components).map(|(id, c)| (*id, c)).collect();
    }

    /// Whether a value of `term`, in an inline position of declaration
    /// `owner`'s members, holds an `owner` inline: that position needs a Box.
    pub fn holds_owner_inline(&self, owner: &str, term: &Term) -> bool {
        match term {
            Term::Option(t) => self.holds_owner_inline(owner, t),
            Term::Tuple(items) => items.iter().any(|t| self.holds_owner_inline(owner, t)),
            Term::Named { declaration, args } => {
                // `owner` holds this declaration inline here, so it holds
                // `owner` back exactly when the two share a component.
                declaration == owner
                    || self
                        .inline_component
                        .get(declaration.as_str())
                        .is_some_and(|c| self.inline_component.get(owner) == Some(c))
                    || args
                        .iter()
                        .enumerate()
                        .any(|(j, a)| self.holds_inline(declaration, j) && self.holds_owner_inline(owner, a))
            }
            _ => false,
        }
    }

    /// Records and enums, and host types, that values reach from the Tools'
    /// parameters and results.
    fn reach_from(&mut self, tools: &'a [ToolDecl]) {
        let mut seen = BTreeSet::new();
        for tool in tools {
            for term in tool.params.iter().map(|p| &p.ty).chain([&tool.ok, &tool.err]) {
                self.visit(term, &mut seen);
            }
        }
        let mut ids: Vec<&'a str> = seen.into_iter().collect();
        ids.sort_by_key(|id| (self.declarations[*id].lexical_ordinal, *id));
        for id in ids {
            match self.declarations[id].body {
                Body::Record { .. } | Body::Enum { .. } => self.generated.push(id),
                Body::Host => self.hosts.push(id),
                Body::Nondata => {}
            }
        }
    }

    fn visit(&self, term: &'a Term, seen: &mut BTreeSet<&'a str>) {
        match term {
            Term::List(t) | Term::Set(t) | Term::Option(t) => self.visit(t, seen),
            Term::Dict(k, v) => {
                self.visit(k, seen);
                self.visit(v, seen);
            }
            Term::Tuple(items) => items.iter().for_each(|t| self.visit(t, seen)),
            Term::Named { declaration, args } => {
                let Some((id, template)) = self.declarations.get_key_value(declaration) else { return };
                if seen.insert(id.as_str()) {
                    for member in member_terms(template) {
                        self.visit(member, seen);
                    }
                }
                for (j, arg) in args.iter().enumerate() {
                    if self.used(declaration, j) {
                        self.visit(arg, seen);
                    }
                }
            }
            Term::Prim(_) | Term::Param { .. } | Term::Function { .. } | Term::Task(_) => {}
        }
    }
}

/// Which of `PartialEq + Eq`, `PartialOrd + Ord` and `Hash` a Rust type has.
/// Every type generated code names has `PartialOrd` exactly when it has
/// `Ord`, and `PartialEq` exactly when it has `Eq`, so three flags suffice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Traits {
    pub eq: bool,
    pub ord: bool,
    pub hash: bool,
}

impl Traits {
    pub const ALL: Traits = Traits { eq: true, ord: true, hash: true };
    /// `HostToken`: equal or not, hashed, never ordered.
    pub const HOST: Traits = Traits { eq: true, ord: false, hash: true };

    fn of_body(body: &Body) -> Traits {
        if matches!(body, Body::Host) {
            Traits::HOST
        } else {
            Traits::ALL
        }
    }

    pub fn and(self, other: Traits) -> Traits {
        // Ord needs Eq: an order without equality is no `Ord`.
        let eq = self.eq && other.eq;
        Traits { eq, ord: eq && self.ord && other.ord, hash: self.hash && other.hash }
    }
}

/// Each node's strongly connected component (an id shared by exactly the
/// nodes of one component), by Tarjan's algorithm with an explicit stack.
fn strongly_connected(edges: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let (mut index, mut low, mut component) = (vec![UNSEEN; n], vec![0; n], vec![UNSEEN; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut next_index, mut next_component) = (Vec::new(), 0, 0);
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, position in its edge list)
        let mut calls = vec![(root, 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut at)) = calls.last_mut() {
            if let Some(&next) = edges[node].get(*at) {
                *at += 1;
                if index[next] == UNSEEN {
                    index[next] = next_index;
                    low[next] = next_index;
                    next_index += 1;
                    stack.push(next);
                    on_stack[next] = true;
                    calls.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component[member] = next_component;
                    if member == node {
                        break;
                    }
                }
                next_component += 1;
            }
        }
    }
    component
}

/// Whether a term is Text (a Dict keyed by it is a JSON object).
pub fn is_text(term: &Term) -> bool {
    *term == Term::Prim(Prim::Text)
}

/// Whether a term mentions one of a generic Tool's own type parameters.
pub fn mentions_tool_param(term: &Term) -> bool {
    let mut found = false;
    term.walk(&mut |t| {
        if let Term::Param { owner, .. } = t {
            found |= owner == flow_core::types::TOOL_OWNER;
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::types::parse::listing_from_text;
    use flow_core::Limits;

    #[test]
    fn weather_facts() {
        let text = include_str!("../../../../tests/examples/weather.tools.json");
        let listing = listing_from_text(text.as_bytes(), &Limits::default()).unwrap();
        let facts = Facts::new(&listing.declarations, &listing.tools);
        // Page<T> uses T in a List: used, not needing Ord, not inline.
        assert!(facts.used("5", 0) && !facts.needs_ord("5", 0));
        assert_eq!(facts.traits("6"), Traits::ALL);
        // Region holds List<Region>: on the heap, no Box.
        let region = &listing.declarations["7"];
        assert!(!facts.holds_owner_inline("7", member_terms(region)[1]));
        assert_eq!(facts.generated, ["1", "2", "3", "4", "5", "6", "7", "8"]);
    }

    /// The derives are decided on the substituted graph: an argument no
    /// value holds takes nothing away, a host token takes the order away
    /// from everything that holds one, through every argument it is in.
    #[test]
    fn traits_through_arguments() {
        let text = include_str!("../../../../tests/examples/genprop_generic_carrier.tools.json");
        let listing = listing_from_text(text.as_bytes(), &Limits::default()).unwrap();
        let facts = Facts::new(&listing.declarations, &listing.tools);
        // Holder (Page<Int>, Bag<Text>, Set<Pair<Int, Text>>) has them all;
        // Keyed holds a Token and a Page<Token>; Outer<T> holds a Keyed
        // inside a Page<Pair<T, Keyed>>.
        assert_eq!(facts.traits("4"), Traits::ALL);
        assert_eq!(facts.traits("6"), Traits::HOST);
        assert_eq!(facts.traits("7"), Traits::HOST);
        // Wrap<U> orders U through Bag<U> and its own Dict key.
        assert!(facts.needs_ord("8", 0));
        let text = include_str!("../../../../tests/examples/genprop_phantom.tools.json");
        let listing = listing_from_text(text.as_bytes(), &Limits::default()).unwrap();
        let facts = Facts::new(&listing.declarations, &listing.tools);
        // Tag<U> holds no U: Tag<Token> keeps every trait, and so does
        // Holder, which holds Set<Tag<Token>> and Empty<Token>.
        assert!(!facts.used("1", 0));
        let tag_of_token = &member_terms(&listing.declarations["7"])[0];
        assert_eq!(facts.term_traits(tag_of_token), Traits::ALL);
        assert_eq!(facts.traits("7"), Traits::ALL);
        // Half<T, t> uses T, not t.
        assert!(facts.used("4", 0) && !facts.used("4", 1));
    }

    #[test]
    fn components_are_the_cycles() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3, 3 -> 3, 4 alone.
        let c = strongly_connected(&[vec![1], vec![2], vec![0, 3], vec![3], vec![]]);
        assert!(c[0] == c[1] && c[1] == c[2]);
        assert!(c[3] != c[0] && c[4] != c[3] && c[4] != c[0]);
    }
}
