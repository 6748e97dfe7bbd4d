//! `V$DATAGUARD_STATUS` on each side. The twin notes a row when its state crosses a line (a
//! destination fails or resynchronises, MRP dies, the recovery area fills, a log switch lands
//! on the standby); each sample carries the rows new since the previous one, as the Oracle
//! source reads them. Texts follow what Oracle writes for these incidents.

use dgscope_model::sample::DgMessage;
use dgscope_model::timestamp::Timestamp;

const LTS: &str = "Log Transport Services";
const LAS: &str = "Log Apply Services";
const RFS: &str = "Remote File Server";
/// ARCn and RFS retry this often while the recovery area stays full.
const FRA_RETRY_S: f64 = 60.0;

/// What the log watches, read from the twin once per fluid step.
pub(crate) struct View<'a> {
    pub t: Timestamp,
    pub t_s: f64,
    pub sync: bool,
    pub link_down: bool,
    /// The link failed by timing out (no answer), not by a refused connection.
    pub net_timeout: bool,
    pub resolving_gap: bool,
    /// MRP0 died on an error.
    pub mrp_died: bool,
    /// Apply stopped by design (snapshot conversion, broker APPLY-OFF).
    pub apply_cancelled: bool,
    pub fra_limit: u64,
    pub fra_used: f64,
    pub fra_full: bool,
    pub orl_bytes: u64,
    /// Current sequence per primary thread.
    pub sequences: &'a [u64],
    /// The primary's ARCn cannot archive (its recovery area is full), and that area's limit.
    pub primary_arch_stuck: bool,
    pub primary_fra_limit: u64,
}

#[derive(Debug, Clone)]
struct Seen {
    link_down: bool,
    resolving_gap: bool,
    mrp_died: bool,
    apply_cancelled: bool,
    fra_warned: bool,
    next_fra_retry_s: Option<f64>,
    next_arch_retry_s: Option<f64>,
}

/// Rows not yet handed to a sample, per side.
#[derive(Debug, Clone)]
pub(crate) struct StatusLog {
    primary: Vec<DgMessage>,
    standby: Vec<DgMessage>,
    seen: Seen,
}

impl Default for StatusLog {
    fn default() -> Self {
        StatusLog {
            primary: Vec::new(),
            standby: Vec::new(),
            seen: Seen {
                link_down: false,
                resolving_gap: false,
                mrp_died: false,
                apply_cancelled: false,
                fra_warned: false,
                next_fra_retry_s: None,
                next_arch_retry_s: None,
            },
        }
    }
}

fn msg(
    t: Timestamp,
    severity: &str,
    facility: &str,
    code: i64,
    dest: u32,
    text: String,
) -> DgMessage {
    DgMessage {
        time: t,
        severity: severity.into(),
        facility: Some(facility.into()),
        error_code: Some(code),
        dest_id: Some(dest),
        message: text,
    }
}

impl StatusLog {
    pub(crate) fn observe(&mut self, v: &View) {
        let t = v.t;
        if v.link_down && !self.seen.link_down {
            let (code, text) = if v.fra_full {
                (
                    16086,
                    "ORA-16086: Redo data cannot be written to the standby redo log".to_string(),
                )
            } else if v.net_timeout {
                // As the primary's alert log words it after LGWR's NET_TIMEOUT.
                (
                    16198,
                    "Error 16198 for archive log file 1 to 'prod_b'".to_string(),
                )
            } else {
                (
                    12543,
                    "Error 12543 received logging on to the standby".to_string(),
                )
            };
            self.primary.push(msg(t, "Error", LTS, code, 2, text));
            if v.sync {
                self.primary.push(msg(
                    t,
                    "Warning",
                    LTS,
                    0,
                    2,
                    "Destination LOG_ARCHIVE_DEST_2 is UNSYNCHRONIZED".into(),
                ));
            }
        }
        let in_trouble = v.link_down || v.resolving_gap;
        let was = self.seen.link_down || self.seen.resolving_gap;
        if v.sync && was && !in_trouble {
            self.primary.push(msg(
                t,
                "Informational",
                LTS,
                0,
                2,
                "Destination LOG_ARCHIVE_DEST_2 is SYNCHRONIZED".into(),
            ));
        }
        if !self.seen.mrp_died && v.mrp_died {
            self.mrp_died(t);
        }
        if !self.seen.apply_cancelled && v.apply_cancelled {
            self.apply_cancelled(t);
        }
        let pct = v.fra_used * 100.0 / v.fra_limit.max(1) as f64;
        if pct >= 97.0 && !self.seen.fra_warned {
            self.seen.fra_warned = true;
            self.standby.push(msg(
                t,
                "Warning",
                LTS,
                19815,
                0,
                format!(
                    "ORA-19815: WARNING: db_recovery_file_dest_size of {} bytes is {pct:.2}% used, and has {} remaining bytes available.",
                    v.fra_limit,
                    (v.fra_limit as f64 - v.fra_used).max(0.0) as u64
                ),
            ));
        }
        if v.fra_full && self.seen.next_fra_retry_s.is_none_or(|n| v.t_s >= n) {
            self.seen.next_fra_retry_s = Some(v.t_s + FRA_RETRY_S);
            self.fra_full(t, v);
        }
        if v.primary_arch_stuck && self.seen.next_arch_retry_s.is_none_or(|n| v.t_s >= n) {
            self.seen.next_arch_retry_s = Some(v.t_s + FRA_RETRY_S);
            self.primary_arch_stuck(t, v);
        }
        self.seen.link_down = v.link_down;
        self.seen.resolving_gap = v.resolving_gap;
        self.seen.mrp_died = v.mrp_died;
        self.seen.apply_cancelled = v.apply_cancelled;
    }

    /// The primary's ARCn cannot archive into its full recovery area: the alert log's
    /// ORA-19809 / ORA-19804, the log it cannot archive (ORA-16038) and the archiver error
    /// sessions get (ORA-00257), repeated on each retry.
    fn primary_arch_stuck(&mut self, t: Timestamp, v: &View) {
        let seq = v.sequences.first().copied().unwrap_or(0);
        for (code, text) in [
            (
                19809,
                "ARC1: Error 19809 Creating archive log file to '+FRA'".to_string(),
            ),
            (
                19809,
                "ORA-19809: limit exceeded for recovery files".to_string(),
            ),
            (
                19804,
                format!(
                    "ORA-19804: cannot reclaim {} bytes disk space from {} bytes limit",
                    v.orl_bytes, v.primary_fra_limit
                ),
            ),
            (
                16038,
                format!("ORA-16038: log 1 sequence# {seq} cannot be archived"),
            ),
            (
                257,
                "ORA-00257: archiver error. Connect internal only, until freed.".to_string(),
            ),
        ] {
            self.primary.push(msg(t, "Error", LTS, code, 1, text));
        }
    }

    /// ARCn cannot archive the full SRLs; RFS finds none free for the next log.
    fn fra_full(&mut self, t: Timestamp, v: &View) {
        self.standby.push(msg(
            t,
            "Error",
            LTS,
            19809,
            0,
            "ARC1: Error 19809 Creating archive log file to '+FRA'".into(),
        ));
        self.standby.push(msg(
            t,
            "Error",
            LTS,
            19809,
            0,
            "ORA-19809: limit exceeded for recovery files".into(),
        ));
        self.standby.push(msg(
            t,
            "Error",
            LTS,
            19804,
            0,
            format!(
                "ORA-19804: cannot reclaim {} bytes disk space from {} bytes limit",
                v.orl_bytes, v.fra_limit
            ),
        ));
        for th in 1..=v.sequences.len() {
            self.standby.push(msg(
                t,
                "Error",
                RFS,
                0,
                0,
                format!(
                    "RFS[{}]: No standby redo logfiles available for T-{th}",
                    th + 3
                ),
            ));
        }
    }

    /// A datafile added on the primary under `standby_file_management=MANUAL`: recovery
    /// creates an UNNAMED placeholder and MRP0 stops on it.
    fn mrp_died(&mut self, t: Timestamp) {
        let file = "/u01/app/oracle/product/19.0.0/dbhome_1/dbs/UNNAMED00007";
        let rows = [
            ("Warning", 0, "File #7 added to control file as 'UNNAMED00007' because the parameter STANDBY_FILE_MANAGEMENT is set to MANUAL".to_string()),
            ("Error", 1111, "MRP0: Background Media Recovery terminated with error 1111".to_string()),
            ("Error", 1111, "ORA-01111: name for data file 7 is unknown - rename to correct file".to_string()),
            ("Error", 1110, format!("ORA-01110: data file 7: '{file}'")),
            ("Error", 1157, "ORA-01157: cannot identify/lock data file 7 - see DBWR trace file".to_string()),
            ("Informational", 0, "MRP0: Background Media Recovery process shutdown".to_string()),
        ];
        for (sev, code, text) in rows {
            self.standby.push(msg(t, sev, LAS, code, 0, text));
        }
    }

    /// Managed recovery cancelled on request (the broker's APPLY-OFF, a snapshot
    /// conversion): MRP0 ends with ORA-16037.
    fn apply_cancelled(&mut self, t: Timestamp) {
        let rows = [
            (
                "Error",
                16037,
                "MRP0: Background Media Recovery cancelled with status 16037",
            ),
            (
                "Error",
                16037,
                "ORA-16037: user requested cancel of managed recovery operation",
            ),
            ("Informational", 0, "Managed Standby Recovery Canceled"),
        ];
        for (sev, code, text) in rows {
            self.standby
                .push(msg(t, sev, LAS, code, 0, text.to_string()));
        }
    }

    /// RFS starts the next SRL for a thread's new log.
    pub(crate) fn standby_switch(&mut self, t: Timestamp, thread: u32, sequence: u64, group: u32) {
        self.standby.push(msg(
            t,
            "Informational",
            RFS,
            0,
            0,
            format!(
                "RFS[{}]: Selected log {group} for T-{thread}.S-{sequence} dbid 3542212356 branch 1185432100",
                thread + 3
            ),
        ));
    }

    pub(crate) fn take_primary(&mut self) -> Vec<DgMessage> {
        std::mem::take(&mut self.primary)
    }

    pub(crate) fn take_standby(&mut self) -> Vec<DgMessage> {
        std::mem::take(&mut self.standby)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(seqs: &[u64]) -> View<'_> {
        View {
            t: Timestamp::from_millis(0),
            t_s: 0.0,
            sync: true,
            link_down: false,
            net_timeout: false,
            resolving_gap: false,
            mrp_died: false,
            apply_cancelled: false,
            fra_limit: 100,
            fra_used: 50.0,
            fra_full: false,
            orl_bytes: 10,
            sequences: seqs,
            primary_arch_stuck: false,
            primary_fra_limit: 100,
        }
    }

    #[test]
    fn each_crossing_is_written_once_and_taken_once() {
        let seqs = [5, 9];
        let mut log = StatusLog::default();
        log.observe(&view(&seqs));
        assert!(log.take_primary().is_empty() && log.take_standby().is_empty());
        let down = View {
            link_down: true,
            ..view(&seqs)
        };
        log.observe(&down);
        log.observe(&down);
        let p = log.take_primary();
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!(p[0].error_code, Some(12543));
        assert!(p[1].message.ends_with("UNSYNCHRONIZED"));
        log.observe(&View {
            resolving_gap: true,
            ..view(&seqs)
        });
        assert!(log.take_primary().is_empty(), "still resynchronising");
        log.observe(&view(&seqs));
        assert!(log.take_primary()[0].message.ends_with("is SYNCHRONIZED"));
        log.observe(&View {
            mrp_died: true,
            ..view(&seqs)
        });
        let s = log.take_standby();
        assert!(s.iter().any(|m| m.error_code == Some(1111) && m.is_error()));
        assert!(s
            .iter()
            .any(|m| m.message.contains("STANDBY_FILE_MANAGEMENT")));
    }

    #[test]
    fn a_full_recovery_area_warns_then_repeats_its_errors_every_minute() {
        let seqs = [5, 9];
        let mut log = StatusLog::default();
        let at = |t_s: f64, used: f64, full: bool| View {
            t_s,
            fra_used: used,
            fra_full: full,
            ..view(&seqs)
        };
        log.observe(&at(0.0, 97.5, false));
        let w = log.take_standby();
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].error_code, Some(19815));
        log.observe(&at(10.0, 100.0, true));
        let e = log.take_standby();
        assert!(e.iter().any(|m| m.error_code == Some(19809)));
        assert_eq!(
            e.iter()
                .filter(|m| m.message.contains("No standby redo logfiles available"))
                .count(),
            2
        );
        log.observe(&at(40.0, 100.0, true));
        assert!(log.take_standby().is_empty());
        log.observe(&at(70.0, 100.0, true));
        assert!(!log.take_standby().is_empty());
    }
}
