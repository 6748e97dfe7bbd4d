//! How long turning one Oracle round trip into a `Sample` takes (client side only: the
//! database's time is not measurable here). Prints figures; asserts nothing.

use dgscope::sample::Slot;
use dgscope::source::oracle::connect::{self, Privilege};
use dgscope::source::oracle::driver::{Driver, LoginSpec};
use dgscope::source::oracle::fake::FakeDriver;
use dgscope::source::oracle::map::{to_sample, MapInput};
use dgscope::source::oracle::scenarios::{primary, standby, Release};
use dgscope::source::oracle::{parse, probe, sql, Secret};
use dgscope::timestamp::Timestamp;
use std::collections::BTreeSet;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn measure(label: &str, iters: u32, mut f: impl FnMut()) {
    for _ in 0..iters / 10 {
        f();
    }
    let t = Instant::now();
    for _ in 0..iters {
        f();
    }
    let per = t.elapsed().as_secs_f64() / f64::from(iters);
    println!("{label:<48} {:>10.2} µs/iter  ({iters} iters)", per * 1e6);
}

fn main() {
    for (label, db, privilege) in [
        (
            "RAC primary 19c, 2 instances",
            primary(Release::R19, 2),
            Privilege::Normal,
        ),
        (
            "RAC primary 19c, 8 instances",
            primary(Release::R19, 8),
            Privilege::Normal,
        ),
        (
            "ADG standby 19c",
            standby(Release::R19, "READ ONLY WITH APPLY"),
            Privilege::Sysdg,
        ),
    ] {
        let d = FakeDriver::new();
        d.add("//h/x", db);
        let login = LoginSpec {
            conn: connect::parse("--bench", "mon@//h/x").unwrap(),
            privilege,
            password: Some(Secret::new("x")),
            call_timeout: Duration::from_secs(10),
        };
        let mut conn = d.connect(&login).unwrap();
        let p = probe(conn.as_mut()).unwrap();
        let parts = sql::parts(p.kind(), p.features);
        let stmt = sql::statement(&parts);
        let rows = conn.query(&stmt).unwrap();
        let included: BTreeSet<&'static str> = parts.iter().map(|p| p.name).collect();
        println!(
            "{label}: {} rows, statement {} bytes",
            rows.len(),
            stmt.len()
        );
        measure(&format!("  map rows → Sample ({label})"), 20_000, || {
            let s = to_sample(
                black_box(&rows),
                MapInput {
                    t: Timestamp::from_millis(0),
                    slot: Slot::primary(),
                    query_us: None,
                    probe: &p,
                    included: &included,
                    errors: Vec::new(),
                },
            );
            black_box(s);
        });
        measure("  build the UNION ALL statement", 20_000, || {
            black_box(sql::statement(black_box(&parts)));
        });
    }
    measure("parse V$DATAGUARD_STATS value", 1_000_000, || {
        black_box(parse::interval_secs(black_box("+00 00:04:11.250")));
    });
    measure("parse TIME_COMPUTED", 1_000_000, || {
        black_box(parse::oracle_datetime_naive(black_box(
            "11/14/2010 20:00:19",
        )));
    });
}
