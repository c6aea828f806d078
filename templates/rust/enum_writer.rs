impl{{ enumeration.common.write_generics }} flow::CanonicalText for {{ enumeration.common.self_type }} {
    fn write_canonical(&self, out: &mut {{ enumeration.common.string }}) -> flow::Written {
{%- if enumeration.variants.is_empty() && enumeration.marker.is_none() %}
        match *self {}
{%- else %}
        match self {
{%- for variant in enumeration.variants %}
            {{ variant.writing_arm() }}
{%- endfor %}
{%- if let Some(marker) = enumeration.marker %}
            Self::{{ marker }}(never, _) => match *never {},
{%- endif %}
        }
        Ok(())
{%- endif %}
    }
}
