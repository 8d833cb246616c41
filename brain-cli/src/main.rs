//! The `brain` binary; everything lives in the `brain_cli` library.

// A store load allocates and frees hundreds of thousands of small strings;
// mimalloc does that several times faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    brain_cli::main()
}
