//! `dgscope grants` as a DBA would paste it, per release and container kind: snapshots of
//! the whole script for 11.2, 19c non-CDB and 19c CDB (the crate version is masked so a
//! version bump does not churn them).

use dgscope::source::oracle::grants::{parse_release, script_for, GrantOptions};

fn script(user: &str, release: &str, cdb: bool) -> String {
    let s = script_for(&GrantOptions {
        user: user.into(),
        release: Some(parse_release(release).unwrap()),
        cdb,
    })
    .unwrap();
    s.replace(env!("CARGO_PKG_VERSION"), "[version]")
}

#[test]
fn grants_for_11_2() {
    let s = script("dgscope_mon", "11.2", false);
    assert!(s.contains("GRANT SYSDBA TO DGSCOPE_MON;"));
    insta::assert_snapshot!("grants_11_2", s);
}

#[test]
fn grants_for_19c_non_cdb() {
    let s = script("dgscope_mon", "19c", false);
    assert!(s.contains("GRANT SYSDG TO DGSCOPE_MON;"));
    assert!(!s.contains("CONTAINER"));
    insta::assert_snapshot!("grants_19c", s);
}

#[test]
fn grants_for_19c_cdb() {
    let s = script("c##dgscope", "19c", true);
    assert!(s.contains("ALTER USER C##DGSCOPE SET CONTAINER_DATA=ALL CONTAINER=CURRENT;"));
    insta::assert_snapshot!("grants_19c_cdb", s);
}
