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

pub fn script(user: &str) -> String {
    let user = user.to_ascii_uppercase();
    let views = sql::all_views();
    let all_labels: Vec<&str> = sql::variants().iter().map(|v| v.label).collect();
    let mut out = String::new();
    let mut line = |s: &str| {
        out.push_str(s);
        out.push('\n');
    };
    line(&format!(
        "-- dgscope {}: least-privilege monitoring user {user}",
        env!("CARGO_PKG_VERSION")
    ));
    line("-- Generated from the views dgscope's own SQL reads. dgscope only runs SELECTs.");
    line("-- Run on the PRIMARY as a DBA: a physical standby receives users and grants");
    line("-- through redo (it is read-only itself).");
    line("-- In a CDB: connect to CDB$ROOT, name the user C##..., and add CONTAINER=ALL to");
    line("-- each GRANT so statistics are instance-wide.");
    line("");
    line(&format!(
        "CREATE USER {user} IDENTIFIED BY \"choose-a-password\";  -- dgscope reads it from --password-env or a prompt"
    ));
    line(&format!("GRANT CREATE SESSION TO {user};"));
    line("");
    line("-- Option A, simplest: the catalog role (SELECT on every V$ view and more).");
    line(&format!("-- GRANT SELECT_CATALOG_ROLE TO {user};"));
    line("");
    line("-- Option B, least privilege: exactly the views dgscope reads. Grants go on the");
    line("-- SYS.V_$ / SYS.GV_$ views; granting on the V$ synonyms fails.");
    for (view, u) in &views {
        let parts: Vec<&str> = u.parts.iter().copied().collect();
        let when = if u.variants.len() == all_labels.len() {
            String::new()
        } else {
            format!(
                "; only used on {} (skip it elsewhere: ORA-00942 where it does not exist)",
                u.variants.join(", ")
            )
        };
        line(&format!(
            "GRANT SELECT ON {} TO {user};  -- {}{when}",
            sql::grant_object(view),
            parts.join(", ")
        ));
    }
    line("");
    line("-- MOUNTED standby (not open read-only): Oracle accepts only administrative");
    line("-- connections there, so the user also needs SYSDG (12c+; 11.2: SYSDBA and");
    line("-- dgscope --standby-as sysdba). An Active Data Guard (open) standby works with the");
    line("-- grants above and --standby-as normal.");
    line(&format!("GRANT SYSDG TO {user};"));
    line("-- SYSDG is checked against the standby's PASSWORD FILE, not the dictionary: after");
    line("-- the GRANT, copy orapw<SID> from the primary to each standby ($ORACLE_HOME/dbs, or");
    line("-- ASM: srvctl config database shows it). With COMPATIBLE >= 12.2 on both sides the");
    line("-- password file change reaches physical standbys with redo. Check on the standby:");
    line("--   SELECT username, sysdg FROM v$pwfile_users;");
    line("-- A session AS SYSDG runs as user SYSDG, not as the named user: the object grants");
    line("-- above do not apply to it.");
    out
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
}
