//! flow-gen: the command line of flow-toolkit (see `flow_gen::cli`).

fn main() -> std::process::ExitCode {
    let status = flow_gen::cli::run(std::env::args_os());
    std::process::ExitCode::from(u8::try_from(status).unwrap_or(1))
}
