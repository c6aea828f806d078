//! The weather Tool process: `rust-weather` speaks the Tool process protocol
//! on stdin and stdout.

fn main() -> std::io::Result<()> {
    weather_tools::serve(rust_weather::Weather::default())
}
