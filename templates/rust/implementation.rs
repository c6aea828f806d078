//! The implementation of the {{ project }} Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.
{%- if !imports.is_empty() %}

{{ imports }}
{%- endif %}

/// The Tools' bodies.
pub struct {{ implementation }};

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl {{ trait_name }} for {{ implementation }} {
{%- for method in methods %}
{%- if !loop.first %}
{% endif %}
{{ method.stub_doc }}{{ method.signature }}
        todo!({{ method.method_literal }})
    }
{%- endfor %}
}
