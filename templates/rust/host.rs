
{{ host.doc }}pub type {{ host.ident }} = {{ host.target }};
