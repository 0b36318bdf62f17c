//! The `fray` binary: parses the command line and hands over to [`fray::cli`].

fn main() -> std::process::ExitCode {
    fray::cli::run()
}
