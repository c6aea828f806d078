impl{{ record.common.write_generics }} flow::CanonicalText for {{ record.common.self_type }} {
    fn write_canonical(&self, out: &mut {{ record.common.string }}) -> flow::Written {
        {{ record.writing() }}
    }
}
