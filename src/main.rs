//! The `fray` binary: parses the command line and hands over to [`fray::cli`].

/// Small allocations are most of what a battle asks of the allocator; mimalloc serves them from
/// per-size free lists at a fraction of glibc's cost. Nothing in a battle depends on addresses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    fray::cli::run()
}
