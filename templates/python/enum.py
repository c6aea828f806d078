{% for ctor in constructors -%}
{{ ctor }}


{% endfor -%}
{{ alias }}: typing.TypeAlias = {{ members }}
{{ doc }}
