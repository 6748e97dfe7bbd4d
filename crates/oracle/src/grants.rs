//! The script `dgscope grants` prints: a least-privilege monitoring user, generated from the
//! same view list the sampling SQL uses, so the two cannot drift apart.

use super::sql;

/// Checks a user name for the script (printed, never executed): an Oracle identifier,
/// `C##` common users included.
pub fn valid_user(name: &str) -> bool {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    first_ok
        && name.len() <= 128
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '#'))
}

/// A release as `--release` names it: `11.2`, `12.1`, `12.2`, `12c`, `19c`, `19.21`, `23ai` …
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrantRelease {
    pub major: u32,
    /// `None` for a bare `12`/`12c` (both 12.1 and 12.2).
    pub minor: Option<u32>,
}

impl GrantRelease {
    /// SYSDG exists from 12.1 (VIEWS.md 3.12); 11.2 has SYSDBA only.
    pub fn has_sysdg(self) -> bool {
        self.major >= 12
    }

    /// The SQL variants (`sql::variants` labels) this release is sampled with.
    fn labels(self) -> Vec<&'static str> {
        match (self.major, self.minor) {
            (11, _) => vec!["11.2"],
            (12, Some(1)) => vec!["12.1.0.1", "12.1.0.2"],
            (12, Some(_)) => vec!["12.2"],
            (12, None) => vec!["12.1.0.1", "12.1.0.2", "12.2"],
            // 18c onwards has every view and column the 19c SQL reads (the probe picks it).
            _ => vec!["19c"],
        }
    }
}

/// Parses `--release`; `Err` says what is accepted.
pub fn parse_release(s: &str) -> Result<GrantRelease, String> {
    let t = s.trim().to_ascii_lowercase();
    let t = t
        .strip_suffix("ai")
        .or_else(|| t.strip_suffix('c'))
        .unwrap_or(&t);
    let mut it = t.split('.');
    let major: Option<u32> = it.next().and_then(|m| m.parse().ok());
    let minor: Option<Option<u32>> = match it.next() {
        None => Some(None),
        Some(m) => m.parse().ok().map(Some),
    };
    let bad = || {
        format!(
            "--release {s:?} is not a release dgscope has SQL for: 11.2, 12.1, 12.2, 18c, 19c, 21c, 23ai (or a full version such as 19.21.0.0)"
        )
    };
    match (major, minor) {
        (Some(11), Some(Some(2))) => Ok(GrantRelease {
            major: 11,
            minor: Some(2),
        }),
        (Some(12), Some(m @ (None | Some(1) | Some(2)))) => Ok(GrantRelease {
            major: 12,
            minor: m,
        }),
        (Some(major @ 18..=99), Some(minor)) => Ok(GrantRelease { major, minor }),
        _ => Err(bad()),
    }
}

/// What the script is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantOptions {
    pub user: String,
    /// `None`: every release, both privilege variants shown.
    pub release: Option<GrantRelease>,
    /// A multitenant container database (12.1+).
    pub cdb: bool,
}

/// The script for every release, non-CDB (what `dgscope grants` prints by default).
pub fn script(user: &str) -> String {
    script_for(&GrantOptions {
        user: user.to_string(),
        release: None,
        cdb: false,
    })
    .expect("a non-CDB script for every release always exists")
}

/// The script for `o`; `Err` for a combination Oracle does not have (a CDB on 11.2).
pub fn script_for(o: &GrantOptions) -> Result<String, String> {
    if o.cdb && o.release.is_some_and(|r| r.major < 12) {
        return Err("--cdb: container databases exist from 12.1; 11.2 has none".into());
    }
    let user = o.user.to_ascii_uppercase();
    let views = sql::all_views();
    let wanted: Vec<&str> = match o.release {
        Some(r) => r.labels(),
        None => sql::variants().iter().map(|v| v.label).collect(),
    };
    // CONTAINER=ALL makes a grant common: it holds in the root and every PDB.
    let all = if o.cdb { " CONTAINER=ALL" } else { "" };
    let mut out = String::new();
    let mut line = |s: &str| {
        out.push_str(s);
        out.push('\n');
    };
    let target = match (o.release, o.cdb) {
        (None, _) => "every release dgscope has SQL for (11.2 to 23ai)".to_string(),
        (Some(r), _) => match r.minor {
            Some(m) if r.major < 18 => format!("Oracle {}.{m}", r.major),
            _ if r.major == 12 => "Oracle 12c (12.1 and 12.2)".to_string(),
            _ => format!(
                "Oracle {}{}",
                r.major,
                if r.major >= 23 { "ai" } else { "c" }
            ),
        },
    };
    line(&format!(
        "-- dgscope {}: least-privilege monitoring user {user}",
        env!("CARGO_PKG_VERSION")
    ));
    line(&format!(
        "-- For {target}, {}.",
        if o.cdb {
            "a container database (CDB)"
        } else {
            "a non-CDB (dgscope grants --cdb for a container database)"
        }
    ));
    line("-- Generated from the views dgscope's own SQL reads. dgscope only runs SELECTs.");
    line("-- Run on the PRIMARY as a DBA: a physical standby receives users and grants");
    line("-- through redo (it is read-only itself).");
    if o.cdb {
        line("-- CDB: connect to CDB$ROOT. The user must be a common user (C##... unless the");
        line("-- DBA changed COMMON_USER_PREFIX): dgscope connects to the root, where the V$");
        line("-- views are instance-wide.");
        if !user.starts_with("C##") {
            line(&format!(
                "-- WARNING: {user} does not start with C##: CREATE USER fails with ORA-65096 under the default prefix."
            ));
        }
    }
    line("");
    line(&format!(
        "CREATE USER {user} IDENTIFIED BY \"choose-a-password\"{all};  -- dgscope reads it from --password-env or a prompt"
    ));
    line(&format!("GRANT CREATE SESSION TO {user}{all};"));
    line("");
    line("-- Option A, simplest: the catalog role (SELECT on every V$ view and more).");
    line(&format!("-- GRANT SELECT_CATALOG_ROLE TO {user}{all};"));
    line("");
    line("-- Option B, least privilege: exactly the views dgscope reads. Grants go on the");
    line("-- SYS.V_$ / SYS.GV_$ views; granting on the V$ synonyms fails.");
    for (view, u) in &views {
        let used: Vec<&str> = u
            .variants
            .iter()
            .copied()
            .filter(|l| wanted.contains(l))
            .collect();
        if used.is_empty() {
            continue;
        }
        let parts: Vec<&str> = u.parts.iter().copied().collect();
        let when = if used.len() == wanted.len() {
            String::new()
        } else {
            format!(
                "; only used on {} (skip it elsewhere: ORA-00942 where it does not exist)",
                used.join(", ")
            )
        };
        line(&format!(
            "GRANT SELECT ON {} TO {user}{all};  -- {}{when}",
            sql::grant_object(view),
            parts.join(", ")
        ));
    }
    if o.cdb {
        line("");
        line("-- CDB: the V$ views are container data objects. A common user sees only the");
        line("-- root's rows until CONTAINER_DATA says otherwise: V$IOSTAT_FILE would leave out");
        line("-- every PDB's data files (dgscope flags that as CONTAINER_DATA on its I/O part).");
        line(&format!(
            "ALTER USER {user} SET CONTAINER_DATA=ALL CONTAINER=CURRENT;"
        ));
    }
    line("");
    line("-- MOUNTED standby (not open read-only): Oracle accepts only administrative");
    line("-- connections there. An Active Data Guard (open) standby works with the grants");
    line("-- above and --standby-as normal.");
    match o.release {
        Some(r) if r.has_sysdg() => {
            line(
                "-- SYSDG is the least privilege for it (dgscope --standby-as sysdg, the default).",
            );
            line(&format!("GRANT SYSDG TO {user}{all};"));
        }
        Some(_) => {
            line("-- 11.2 has no SYSDG: SYSDBA it is (dgscope --standby-as sysdba).");
            line(&format!("GRANT SYSDBA TO {user};"));
        }
        None => {
            line("-- 12c and later: SYSDG, the least privilege (dgscope --standby-as sysdg).");
            line(&format!("GRANT SYSDG TO {user}{all};"));
            line("-- 11.2 has no SYSDG: use this line instead (dgscope --standby-as sysdba).");
            line(&format!("-- GRANT SYSDBA TO {user};"));
        }
    }
    line("");
    line("-- The administrative privilege is checked against each standby's PASSWORD FILE,");
    line("-- not the dictionary: after the GRANT, copy orapw<SID> from the primary to each");
    let modern = o.release.is_none_or(|r| r.has_sysdg());
    if modern {
        line("-- standby ($ORACLE_HOME/dbs, or ASM: srvctl config database shows it). With");
        line("-- COMPATIBLE >= 12.2 on both sides the change reaches physical standbys with redo.");
        line("-- FAR SYNC instances never get it with redo (they receive redo but do not apply");
        line("-- it): copy the primary's password file to every far sync instance by hand.");
    } else {
        line("-- standby ($ORACLE_HOME/dbs, or ASM: srvctl config database shows it); 11.2");
        line("-- does not carry password file changes to standbys itself.");
    }
    if modern {
        line("-- GRANT SYSDG needs a password file in the 12 or 12.2 format: on a LEGACY file");
        line("-- it fails with ORA-28017 (so does a common administrative privilege in a CDB).");
        line("-- Check the format before granting:");
        line("--   SELECT file_name, format FROM v$passwordfile_info;   (12.2 and later)");
        line("--   orapwd describe file=<password file>                 (on the host)");
        line("-- and migrate a LEGACY file with orapwd's INPUT_FILE option, for example");
        line("--   orapwd file=<new file> input_file=<legacy file> format=12.2");
    }
    line("-- Check on each standby that the user is there with its privilege:");
    if modern {
        line("--   SELECT username, sysdba, sysdg FROM v$pwfile_users;   (11.2: no SYSDG column)");
    } else {
        line("--   SELECT username, sysdba FROM v$pwfile_users;");
    }
    line("-- A session AS SYSDG or AS SYSDBA runs as that administrative user, not as the");
    line("-- named user: the object grants above do not apply to it.");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_names() {
        assert!(valid_user("dgscope_mon"));
        assert!(valid_user("C##DGSCOPE"));
        assert!(!valid_user("1mon"));
        assert!(!valid_user("mon; DROP USER x"));
        assert!(!valid_user(""));
    }

    #[test]
    fn script_grants_each_view_once_with_its_version_note() {
        let s = script("mon");
        assert!(s.contains("GRANT SELECT ON SYS.GV_$SYSTEM_EVENT TO MON;"));
        assert!(s.contains("GRANT SYSDG TO MON;"));
        assert!(
            s.contains("-- GRANT SYSDBA TO MON;"),
            "the 11.2 variant, commented out"
        );
        let micro = s
            .lines()
            .find(|l| l.contains("GV_$EVENT_HISTOGRAM_MICRO "))
            .unwrap();
        assert!(
            micro.contains("only used on 12.1.0.2, 12.2, 19c"),
            "{micro}"
        );
        let managed = s
            .lines()
            .find(|l| l.contains("GV_$MANAGED_STANDBY "))
            .unwrap();
        assert!(
            managed.contains("only used on 11.2, 12.1.0.1, 12.1.0.2"),
            "{managed}"
        );
        assert_eq!(s.matches("SYS.GV_$SYSSTAT ").count(), 1);
    }

    #[test]
    fn releases_parse_as_dbas_write_them() {
        let r = |s: &str| parse_release(s).map(|r| (r.major, r.minor));
        assert_eq!(r("11.2"), Ok((11, Some(2))));
        assert_eq!(r("11.2.0.4"), Ok((11, Some(2))));
        assert_eq!(r("12c"), Ok((12, None)));
        assert_eq!(r("12.2"), Ok((12, Some(2))));
        assert_eq!(r("19c"), Ok((19, None)));
        assert_eq!(r("19.21"), Ok((19, Some(21))));
        assert_eq!(r("23ai"), Ok((23, None)));
        for bad in ["", "10.2", "11.1", "12.3", "17", "nineteen", "19.x"] {
            assert!(parse_release(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_release_grants_only_the_views_its_sql_reads() {
        let o = |rel: &str| GrantOptions {
            user: "mon".into(),
            release: Some(parse_release(rel).unwrap()),
            cdb: false,
        };
        let s11 = script_for(&o("11.2")).unwrap();
        assert!(s11.contains("GV_$MANAGED_STANDBY ") && !s11.contains("GV_$DATAGUARD_PROCESS "));
        assert!(!s11.contains("GV_$EVENT_HISTOGRAM_MICRO "));
        assert!(s11.contains("GRANT SYSDBA TO MON;") && !s11.contains("SYSDG TO"));
        assert!(
            !s11.contains("v$passwordfile_info"),
            "no 12c password file format on 11.2"
        );
        let s19 = script_for(&o("19c")).unwrap();
        assert!(s19.contains("GV_$DATAGUARD_PROCESS ") && !s19.contains("GV_$MANAGED_STANDBY "));
        assert!(s19.contains("V_$DATAGUARD_CONFIG "));
        assert!(s19.contains("GRANT SYSDG TO MON;") && !s19.contains("SYSDBA TO"));
        assert!(
            !s19.contains("only used on"),
            "every view is used on the one release"
        );
        assert!(s19.contains("ORA-28017") && s19.contains("far sync"));
    }

    #[test]
    fn a_cdb_script_is_common_and_sets_container_data() {
        let o = GrantOptions {
            user: "c##mon".into(),
            release: Some(parse_release("19c").unwrap()),
            cdb: true,
        };
        let s = script_for(&o).unwrap();
        assert!(s.contains("ALTER USER C##MON SET CONTAINER_DATA=ALL CONTAINER=CURRENT;"));
        assert!(s.contains("GRANT SELECT ON SYS.GV_$SYSTEM_EVENT TO C##MON CONTAINER=ALL;"));
        assert!(s.contains("GRANT SYSDG TO C##MON CONTAINER=ALL;"));
        assert!(!s.contains("WARNING"));
        let local = script_for(&GrantOptions {
            user: "mon".into(),
            ..o.clone()
        })
        .unwrap();
        assert!(local.contains("WARNING: MON does not start with C##"));
        let old = GrantOptions {
            release: Some(parse_release("11.2").unwrap()),
            ..o
        };
        assert!(script_for(&old).is_err());
    }
}
