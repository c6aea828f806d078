
impl{{ record.common.from_generics }} flow::FromValue for {{ record.common.self_type }} {
    fn from_value(value: flow::Value) -> flow::Result<Self> {
{%- if record.fields.is_empty() %}
        flow::Fields::of_record(value)?;
{%- if let Some(marker) = record.marker %}
        Ok(Self { {{ marker }}: std::marker::PhantomData })
{%- else %}
        Ok(Self {})
{%- endif %}
{%- else %}
        let mut fields = flow::Fields::of_record(value)?;
        Ok(Self {
{%- for field in record.fields %}
            {{ field.ident }}: fields.field({{ field.name }})?,
{%- endfor %}
{%- if let Some(marker) = record.marker %}
            {{ marker }}: std::marker::PhantomData,
{%- endif %}
        })
{%- endif %}
    }
}

impl{{ record.common.into_generics }} flow::IntoValue for {{ record.common.self_type }} {
    fn into_value(self) -> flow::Value {
        {{ record.encoding() }}
    }
}
