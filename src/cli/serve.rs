//! `dgscope serve`'s flags, in the Prometheus exporter convention (`--web.*`).

use clap::Args;

/// The default listen address: this host only, port 9731. `serve` holds database credentials
/// and, without `--web.config.file`, answers without TLS or authentication: reaching it from
/// the network is a choice to make (`--web.listen-address :9731`), not a default.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:9731";

fn shard(s: &str) -> Result<crate::serve::shard::Shard, String> {
    s.parse()
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Profiles from the config file to serve, one pair each
    #[arg(value_name = "PROFILE")]
    pub profiles: Vec<String>,
    /// Serve every profile of the config file
    #[arg(long)]
    pub all_profiles: bool,
    /// Serve a simulated pair running this scenario, labelled pair="twin-SCENARIO"
    /// (repeatable; see `dgscope twin list`)
    #[arg(
        long = "twin",
        value_name = "SCENARIO",
        value_parser = super::values::scenarios(),
        hide_possible_values = true
    )]
    pub twins: Vec<String>,
    /// Seed of the twins' random numbers
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Address to listen on: HOST:PORT, or :PORT for every interface
    #[arg(
        long = "web.listen-address",
        value_name = "ADDR",
        default_value = DEFAULT_LISTEN,
        env = "DGSCOPE_WEB_LISTEN_ADDRESS"
    )]
    pub listen_address: String,
    /// Web configuration in the Prometheus exporter toolkit's format (YAML): TLS certificate
    /// and key (tls_server_config), basic-auth users with bcrypt hashes (basic_auth_users)
    #[arg(
        long = "web.config.file",
        value_name = "FILE",
        env = "DGSCOPE_WEB_CONFIG_FILE"
    )]
    pub web_config_file: Option<std::path::PathBuf>,
    /// Path under which the metrics are served
    #[arg(
        long = "web.telemetry-path",
        value_name = "PATH",
        default_value = "/metrics",
        env = "DGSCOPE_WEB_TELEMETRY_PATH"
    )]
    pub telemetry_path: String,
    /// Serve only shard K of N: the pairs whose names hash to it (rendezvous hashing), so N
    /// exporters with the same config split a fleet with nothing lost or doubled
    #[arg(long, value_name = "K/N", value_parser = shard)]
    pub shard: Option<crate::serve::shard::Shard>,
    /// One live pair from flags (labelled by the primary's service or alias)
    #[command(flatten)]
    pub conn: super::oracle::ConnArgs,
}
