
impl{{ record.common.json_generics }} flow::FromJson for {{ record.common.self_type }} {
    fn from_json(json: flow::Json) -> flow::Result<Self> {
        const IDENTITY: &str = {{ record.common.identity }};
{%- if record.fields.is_empty() %}
        flow::JsonFields::of_record(json, IDENTITY)?;
{%- if let Some(marker) = record.marker %}
        Ok(Self { {{ marker }}: std::marker::PhantomData })
{%- else %}
        Ok(Self {})
{%- endif %}
{%- else %}
        let mut fields = flow::JsonFields::of_record(json, IDENTITY)?;
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
