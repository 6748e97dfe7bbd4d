fn main() -> std::process::ExitCode {
    dgscope::commands::main()
}
