//! The real driver on a machine without Oracle Instant Client (the development and CI
//! machines): the library cannot load, and that path is exercised for real here.

use dgscope::sample::SampleErrorKind;
use dgscope::source::oracle::connect::{self, Privilege};
use dgscope::source::oracle::errors::{explain, ErrCode, ErrContext};
use dgscope::source::oracle::{init_client, Driver, LoginSpec, OracleDriver, Secret};
use std::time::Duration;

#[test]
fn an_empty_client_dir_fails_with_dpi_1047_and_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let e = init_client(Some(dir.path())).unwrap_err();
    assert_eq!(e.code, ErrCode::Dpi(1047), "{}", e.message);
    let ex = explain(&e, &ErrContext::default());
    assert_eq!(ex.kind, SampleErrorKind::NoClientLibrary);
}

#[test]
fn connecting_without_the_client_library_is_dpi_1047_not_a_crash() {
    let login = LoginSpec {
        conn: connect::parse("--primary", "mon@//127.0.0.1:1/x").unwrap(),
        privilege: Privilege::Sysdg,
        password: Some(Secret::new("x")),
        call_timeout: Duration::from_secs(1),
    };
    let e = OracleDriver
        .connect(&login)
        .err()
        .expect("no client library on this machine");
    assert_eq!(e.code, ErrCode::Dpi(1047), "{}", e.message);
}
