// Reading a recording allocates and frees millions of small strings: see Cargo.toml.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    dgscope::commands::main()
}
