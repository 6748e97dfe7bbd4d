//! `--web.config.file`: the Prometheus exporter toolkit's web configuration (YAML) — TLS
//! certificate and key, optionally client certificates, and basic-auth users with bcrypt
//! hashes. Read once at start; anything it cannot honour is an error naming the key, never
//! a setting silently ignored (a dropped `client_auth_type` would open what was meant shut).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio_rustls::rustls;

/// The web configuration as it is served.
#[derive(Clone)]
pub struct WebConfig {
    /// TLS, when `tls_server_config` is set.
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Users and their bcrypt hashes; empty: no authentication.
    users: Arc<BTreeMap<String, String>>,
    /// Credentials verified already (see [`WebConfig::check`]).
    verified: Arc<Mutex<std::collections::HashSet<u64>>>,
    /// Salt of the verified-credentials keys, random per process.
    salt: std::collections::hash_map::RandomState,
    /// A hash at the users' cost of a password nobody has, checked for unknown users.
    dummy: Arc<str>,
    /// bcrypt checks running at once: a flood of wrong passwords costs at most these cores,
    /// never the responder's (a remembered credential needs none).
    verifying: Arc<tokio::sync::Semaphore>,
}

/// bcrypt checks at once (see `WebConfig::verifying`).
const VERIFYING: usize = 2;
/// How long a request waits for a bcrypt check before it is refused (401): a queue of wrong
/// passwords cannot hold connections for long.
const VERIFY_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

impl std::fmt::Debug for WebConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebConfig")
            .field("tls", &self.tls.is_some())
            .field("users", &self.users.len())
            .finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum WebConfigError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not a web configuration: {why}")]
    Yaml { path: String, why: String },
    #[error("{path}: {key}: {why}")]
    Key {
        path: String,
        key: String,
        why: String,
    },
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    tls_server_config: Option<TlsFile>,
    http_server_config: Option<serde_norway::Value>,
    basic_auth_users: Option<BTreeMap<String, String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TlsFile {
    cert_file: Option<String>,
    key_file: Option<String>,
    client_auth_type: Option<String>,
    client_ca_file: Option<String>,
    min_version: Option<String>,
    max_version: Option<String>,
    cipher_suites: Option<serde_norway::Value>,
    curve_preferences: Option<serde_norway::Value>,
    prefer_server_cipher_suites: Option<serde_norway::Value>,
    client_allowed_sans: Option<serde_norway::Value>,
}

/// The largest web configuration read (it holds a few paths and hashes).
const MAX_BYTES: u64 = 1 << 20;

impl WebConfig {
    /// No TLS, no authentication: what `serve` does without `--web.config.file`.
    pub fn none() -> Self {
        WebConfig {
            tls: None,
            users: Arc::default(),
            verified: Arc::default(),
            salt: Default::default(),
            dummy: Arc::from(""),
            verifying: Arc::new(tokio::sync::Semaphore::new(VERIFYING)),
        }
    }

    /// Reads `path`. Relative file names in it are relative to its directory, as the
    /// exporter toolkit takes them.
    pub fn load(path: &Path) -> Result<Self, WebConfigError> {
        let shown = path.display().to_string();
        let text = read_bounded(path).map_err(|source| WebConfigError::Read {
            path: shown.clone(),
            source,
        })?;
        let file: File = if text.trim().is_empty() {
            File::default()
        } else {
            serde_norway::from_str(&text).map_err(|e| WebConfigError::Yaml {
                path: shown.clone(),
                why: e.to_string(),
            })?
        };
        let key = |key: &str, why: String| WebConfigError::Key {
            path: shown.clone(),
            key: key.to_string(),
            why,
        };
        if file.http_server_config.is_some() {
            return Err(key(
                "http_server_config",
                "not supported: dgscope serve speaks HTTP/1.1 and sets no extra headers; remove it"
                    .into(),
            ));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let tls = match file.tls_server_config {
            Some(t) => Some(Arc::new(
                tls_config(t, dir).map_err(|(k, why)| key(&k, why))?,
            )),
            None => None,
        };
        let users = file.basic_auth_users.unwrap_or_default();
        for (user, hash) in &users {
            if user.contains(':') {
                return Err(key(
                    &format!("basic_auth_users.{user}"),
                    "a user name cannot hold ':' (basic auth splits user and password there)"
                        .into(),
                ));
            }
            if hash.parse::<bcrypt::HashParts>().is_err() {
                return Err(key(
                    &format!("basic_auth_users.{user}"),
                    "not a bcrypt hash ($2y$…); make one with `htpasswd -nBC 10 USER` and paste the part after ':'".into(),
                ));
            }
        }
        // As costly as a real user's check, so a wrong name takes as long as a wrong password.
        let dummy = match users.values().next() {
            Some(h) => {
                let cost = h.parse::<bcrypt::HashParts>().map_or(10, |p| p.get_cost());
                bcrypt::hash_with_salt("dgscope: no such user", cost, [7u8; 16])
                    .map(|p| p.to_string())
                    .unwrap_or_default()
            }
            None => String::new(),
        };
        Ok(WebConfig {
            tls,
            users: Arc::new(users),
            dummy: Arc::from(dummy),
            ..WebConfig::none()
        })
    }

    /// Whether requests must carry a user and password.
    pub fn auth_required(&self) -> bool {
        !self.users.is_empty()
    }

    /// Number of users allowed in.
    pub fn users(&self) -> usize {
        self.users.len()
    }

    /// Whether the `Authorization` header value `authorization` names a user whose password
    /// matches its hash. bcrypt takes tens of milliseconds by design: it runs off the
    /// responder's thread, and credentials verified once are remembered (as a keyed hash
    /// of user and password, random per process) so a scraper's every request does not pay
    /// it again. An unknown user costs a verification too, so timing does not tell which
    /// names exist.
    pub async fn check(&self, authorization: Option<&str>) -> bool {
        let Some((user, password)) = authorization.and_then(basic_credentials) else {
            return false;
        };
        let key = {
            use std::hash::BuildHasher;
            self.salt.hash_one((&user, &password))
        };
        if self
            .verified
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&key)
        {
            return true;
        }
        let Ok(Ok(permit)) =
            tokio::time::timeout(VERIFY_WAIT, self.verifying.clone().acquire_owned()).await
        else {
            return false;
        };
        let hash = self.users.get(&user).cloned();
        let dummy = self.dummy.clone();
        let ok = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            match hash {
                Some(h) => bcrypt::verify(password, &h).unwrap_or(false),
                None => {
                    // The same work for a name that does not exist.
                    let _ = bcrypt::verify(password, &dummy);
                    false
                }
            }
        })
        .await
        .unwrap_or(false);
        if ok {
            self.verified
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key);
        }
        ok
    }
}

/// `Basic BASE64(user:password)` → (user, password).
fn basic_credentials(value: &str) -> Option<(String, String)> {
    use base64::Engine;
    let (scheme, rest) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let raw = base64::engine::general_purpose::STANDARD
        .decode(rest.trim())
        .ok()?;
    let text = String::from_utf8(raw).ok()?;
    let (user, password) = text.split_once(':')?;
    Some((user.to_string(), password.to_string()))
}

fn read_bounded(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut s = String::new();
    std::fs::File::open(path)?
        .take(MAX_BYTES)
        .read_to_string(&mut s)?;
    Ok(s)
}

type KeyError = (String, String);

fn tls_config(t: TlsFile, dir: &Path) -> Result<rustls::ServerConfig, KeyError> {
    use rustls_pki_types::pem::PemObject;
    use rustls_pki_types::{CertificateDer, PrivateKeyDer};
    let err = |k: &str, why: String| (format!("tls_server_config.{k}"), why);
    for (name, set) in [
        ("cipher_suites", t.cipher_suites.is_some()),
        ("curve_preferences", t.curve_preferences.is_some()),
        (
            "prefer_server_cipher_suites",
            t.prefer_server_cipher_suites.is_some(),
        ),
        ("client_allowed_sans", t.client_allowed_sans.is_some()),
    ] {
        if set {
            return Err(err(
                name,
                "not supported: dgscope uses rustls's own safe suites and curves; remove it".into(),
            ));
        }
    }
    let (Some(cert), Some(key)) = (t.cert_file, t.key_file) else {
        return Err(err(
            "cert_file",
            "cert_file and key_file are both needed for TLS".into(),
        ));
    };
    let at = |f: &str| -> PathBuf { dir.join(f) };
    let (cert_path, key_path) = (at(&cert), at(&key));
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&cert_path)
        .and_then(|it| it.collect::<Result<Vec<_>, _>>())
        .map_err(|e| err("cert_file", format!("{}: {e}", cert_path.display())))?;
    if certs.is_empty() {
        return Err(err(
            "cert_file",
            format!("{}: no PEM certificate in it", cert_path.display()),
        ));
    }
    let key = PrivateKeyDer::from_pem_file(&key_path)
        .map_err(|e| err("key_file", format!("{}: {e}", key_path.display())))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let versions = versions(t.min_version.as_deref(), t.max_version.as_deref())
        .map_err(|(k, why)| err(&k, why))?;
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&versions)
        .map_err(|e| err("min_version", e.to_string()))?;
    let client_auth = t.client_auth_type.as_deref().unwrap_or("NoClientCert");
    let builder = match client_auth {
        "NoClientCert" => builder.with_no_client_auth(),
        "RequireAndVerifyClientCert" | "VerifyClientCertIfGiven" => {
            let Some(ca) = t.client_ca_file else {
                return Err(err(
                    "client_ca_file",
                    format!("needed with client_auth_type {client_auth}"),
                ));
            };
            let ca_path = at(&ca);
            let mut roots = rustls::RootCertStore::empty();
            let cas = CertificateDer::pem_file_iter(&ca_path)
                .and_then(|it| it.collect::<Result<Vec<_>, _>>())
                .map_err(|e| err("client_ca_file", format!("{}: {e}", ca_path.display())))?;
            for c in cas {
                roots
                    .add(c)
                    .map_err(|e| err("client_ca_file", format!("{}: {e}", ca_path.display())))?;
            }
            let v = rustls::server::WebPkiClientVerifier::builder_with_provider(
                Arc::new(roots),
                provider,
            );
            let v = if client_auth == "VerifyClientCertIfGiven" {
                v.allow_unauthenticated()
            } else {
                v
            };
            let v = v
                .build()
                .map_err(|e| err("client_ca_file", e.to_string()))?;
            builder.with_client_cert_verifier(v)
        }
        other => {
            return Err(err(
                "client_auth_type",
                format!("{other:?}: use NoClientCert, VerifyClientCertIfGiven or RequireAndVerifyClientCert"),
            ))
        }
    };
    let mut config = builder
        .with_single_cert(certs, key)
        .map_err(|e| err("key_file", format!("does not go with cert_file: {e}")))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

/// The protocol versions between `min` and `max` (`TLS12`, `TLS13`; default TLS 1.2 up).
fn versions(
    min: Option<&str>,
    max: Option<&str>,
) -> Result<Vec<&'static rustls::SupportedProtocolVersion>, KeyError> {
    let rank = |k: &str, v: Option<&str>, default: u8| -> Result<u8, KeyError> {
        match v {
            None => Ok(default),
            Some("TLS12") => Ok(2),
            Some("TLS13") => Ok(3),
            Some(other) => Err((
                format!("tls_server_config.{k}"),
                format!("{other:?}: dgscope serves TLS12 or TLS13"),
            )),
        }
    };
    let (lo, hi) = (rank("min_version", min, 2)?, rank("max_version", max, 3)?);
    let mut out = Vec::new();
    if lo <= 2 && hi >= 2 {
        out.push(&rustls::version::TLS12);
    }
    if lo <= 3 && hi >= 3 {
        out.push(&rustls::version::TLS13);
    }
    if out.is_empty() {
        return Err((
            "tls_server_config.min_version".into(),
            "is above max_version".into(),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<WebConfig, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("web.yml");
        std::fs::write(&path, text).unwrap();
        WebConfig::load(&path).map_err(|e| e.to_string())
    }

    #[test]
    fn basic_credentials_are_read_as_the_scheme_writes_them() {
        // "alice:s3cret:with colon" — the password may hold ':'.
        assert_eq!(
            basic_credentials("Basic YWxpY2U6czNjcmV0OndpdGggY29sb24="),
            Some(("alice".into(), "s3cret:with colon".into()))
        );
        assert_eq!(basic_credentials("Bearer abc"), None);
        assert_eq!(basic_credentials("Basic !!!"), None);
    }

    #[test]
    fn what_cannot_be_honoured_is_an_error_naming_the_key() {
        let e = load("basic_auth_users:\n  alice: plaintext\n").unwrap_err();
        assert!(
            e.contains("basic_auth_users.alice: not a bcrypt hash"),
            "{e}"
        );
        let e = load("tls_server_config:\n  cert_file: c.pem\n").unwrap_err();
        assert!(e.contains("cert_file and key_file"), "{e}");
        let e = load("tls_server_config:\n  cert_file: c.pem\n  key_file: k.pem\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n").unwrap_err();
        assert!(
            e.contains("tls_server_config.cipher_suites: not supported"),
            "{e}"
        );
        let e = load("http_server_config:\n  http2: false\n").unwrap_err();
        assert!(e.contains("http_server_config: not supported"), "{e}");
        let e = load("tls_server_cnfig: {}\n").unwrap_err();
        assert!(e.contains("unknown field `tls_server_cnfig`"), "{e}");
        let e =
            load("tls_server_config:\n  cert_file: missing.pem\n  key_file: k.pem\n").unwrap_err();
        assert!(
            e.contains("tls_server_config.cert_file:") && e.contains("missing.pem"),
            "{e}"
        );
        assert!(load("").unwrap().tls.is_none());
    }

    #[test]
    fn versions_follow_min_and_max() {
        assert_eq!(versions(None, None).unwrap().len(), 2);
        assert_eq!(versions(Some("TLS13"), None).unwrap().len(), 1);
        assert!(versions(Some("TLS13"), Some("TLS12")).is_err());
        assert!(versions(Some("TLS10"), None).is_err());
    }

    #[tokio::test]
    async fn a_user_is_let_in_with_the_password_of_its_hash_only() {
        let hash = bcrypt::hash("s3cret", 4).unwrap();
        let c = load(&format!("basic_auth_users:\n  alice: '{hash}'\n")).unwrap();
        assert!(c.auth_required());
        use base64::Engine;
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        let good = format!("Basic {}", b64("alice:s3cret"));
        assert!(c.check(Some(&good)).await);
        // Remembered: the second time is the cache's answer, and still right.
        assert!(c.check(Some(&good)).await);
        assert!(
            !c.check(Some(&format!("Basic {}", b64("alice:wrong"))))
                .await
        );
        assert!(!c.check(Some(&format!("Basic {}", b64("bob:s3cret")))).await);
        assert!(!c.check(None).await);
    }

    /// Checks run at most two at a time, and every one of many at once gets its answer.
    #[tokio::test]
    async fn many_checks_at_once_all_get_their_answer() {
        let hash = bcrypt::hash("s3cret", 4).unwrap();
        let c = load(&format!("basic_auth_users:\n  alice: '{hash}'\n")).unwrap();
        use base64::Engine;
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        let mut tasks = Vec::new();
        for i in 0..12 {
            let c = c.clone();
            let pass = if i % 2 == 0 { "s3cret" } else { "wrong" };
            let header = format!("Basic {}", b64(&format!("alice:{pass}")));
            tasks.push(tokio::spawn(
                async move { (i, c.check(Some(&header)).await) },
            ));
        }
        for t in tasks {
            let (i, ok) = t.await.unwrap();
            assert_eq!(ok, i % 2 == 0, "check {i}");
        }
        assert_eq!(c.verifying.available_permits(), VERIFYING);
    }
}
