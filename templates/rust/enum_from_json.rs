
impl{{ enumeration.common.json_generics }} flow::FromJson for {{ enumeration.common.self_type }} {
    fn from_json(json: flow::Json) -> flow::Result<Self> {
        const IDENTITY: &str = {{ enumeration.common.identity }};
        const CONSTRUCTORS: &[(&str, bool)] ={{ enumeration.json_table() }};
        let constructor = flow::JsonConstructor::of_enum(json, IDENTITY, CONSTRUCTORS)?;
        match constructor.name() {
{%- for variant in enumeration.variants %}
            {{ variant.name }} => {{ variant.json_decoding_arm() }}
{%- endfor %}
            _ => unreachable!("of_enum finds only the constructors of the table"),
        }
    }
}
