
impl{{ enumeration.common.from_generics }} flow::FromValue for {{ enumeration.common.self_type }} {
    fn from_value(value: flow::Value) -> flow::Result<Self> {
        let constructor = flow::Constructor::of_enum(value)?;
        match constructor.name() {
{%- for variant in enumeration.variants %}
            {{ variant.name }} => {{ variant.decoding_arm() }}
{%- endfor %}
            _ => Err(constructor.unknown({{ enumeration.common.flow_name }})),
        }
    }
}

impl{{ enumeration.common.into_generics }} flow::IntoValue for {{ enumeration.common.self_type }} {
    fn into_value(self) -> flow::Value {
        match self {
{%- for variant in enumeration.variants %}
            {{ variant.encoding_arm() }}
{%- endfor %}
{%- if let Some(marker) = enumeration.marker %}
            Self::{{ marker }}(never, _) => match never {},
{%- endif %}
        }
    }
}
