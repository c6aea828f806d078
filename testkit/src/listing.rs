//! A tools listing around a random type, for the APIs that take one (the
//! Python and Node codecs). A listing refuses declarations no Tool reaches, so
//! its one Tool takes the root as `input` and one parameter per declaration.

use flow_core::types::parse::DATA_VERSION;
use flow_core::types::write::{listing_to_json, term_to_json};
use flow_core::types::{Declarations, Listing, Param, Prim, Term, ToolDecl};

pub fn listing(declarations: &Declarations, root: &Term) -> Listing {
    let mut params = vec![Param { name: "input".into(), ty: root.clone() }];
    for (id, template) in declarations {
        let args = template.generic.iter().map(|_| Term::Prim(Prim::Int)).collect();
        params.push(Param { name: format!("d{id}"), ty: Term::Named { declaration: id.clone(), args } });
    }
    Listing {
        data: DATA_VERSION.to_owned(),
        tools: vec![ToolDecl {
            tool: "github.com/example/props@0.3.0/types.flow.t".into(),
            doc: None,
            generic: vec![],
            params,
            ok: root.clone(),
            err: Term::Prim(Prim::Never),
        }],
        declarations: declarations.clone(),
    }
}

/// The listing's canonical text.
pub fn listing_text(declarations: &Declarations, root: &Term) -> String {
    listing_to_json(&listing(declarations, root)).to_canonical()
}

/// A type term's JSON text, as the bindings' codecs take it.
pub fn term_text(term: &Term) -> String {
    term_to_json(term).to_canonical()
}
