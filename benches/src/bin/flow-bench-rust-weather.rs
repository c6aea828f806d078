//! The Rust weather Tool the `rust_tool` benchmark calls: the generated crate
//! (`generated-samples/rust/weather`) serving `examples/rust-weather`'s
//! implementation, as its own binary does.

fn main() -> std::io::Result<()> {
    weather_tools::serve(rust_weather::Weather::default())
}
