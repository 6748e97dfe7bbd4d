//! States Oracle reports as strings, as types. Unknown spellings are kept verbatim (a newer
//! release may add a status) instead of failing the whole recording.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! oracle_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(from = "String", into = "String")]
        pub enum $name {
            $($variant,)+
            /// A value this version of dgscope does not know, kept as Oracle spelled it.
            Other(String),
        }

        impl $name {
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)+
                    $name::Other(s) => s,
                }
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                match s.to_ascii_uppercase().as_str() {
                    $(t if t.eq_ignore_ascii_case($text) => $name::$variant,)+
                    _ => $name::Other(s),
                }
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name::from(s.to_string())
            }
        }

        impl From<$name> for String {
            fn from(v: $name) -> String {
                v.as_str().to_string()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

oracle_enum!(
    /// `V$DATABASE.DATABASE_ROLE`.
    Role {
        Primary => "PRIMARY",
        PhysicalStandby => "PHYSICAL STANDBY",
        LogicalStandby => "LOGICAL STANDBY",
        SnapshotStandby => "SNAPSHOT STANDBY",
        FarSync => "FAR SYNC",
    }
);

impl Role {
    pub fn is_standby(&self) -> bool {
        matches!(
            self,
            Role::PhysicalStandby | Role::LogicalStandby | Role::SnapshotStandby
        )
    }

    /// A far sync instance: it receives redo into standby redo logs and forwards it, but has
    /// no datafiles and applies nothing (transport only).
    pub fn is_far_sync(&self) -> bool {
        matches!(self, Role::FarSync)
    }

    /// A member that receives redo from another: a standby or a far sync.
    pub fn receives_redo(&self) -> bool {
        self.is_standby() || self.is_far_sync()
    }
}

oracle_enum!(
    /// `V$DATABASE.OPEN_MODE`.
    OpenMode {
        ReadWrite => "READ WRITE",
        Mounted => "MOUNTED",
        ReadOnly => "READ ONLY",
        ReadOnlyWithApply => "READ ONLY WITH APPLY",
    }
);

oracle_enum!(
    /// `V$ARCHIVE_DEST.TRANSMIT_MODE` as set by `LOG_ARCHIVE_DEST_n` (SYNC, ASYNC; PARALLELSYNC
    /// shows for FASTSYNC on some releases).
    TransmitMode {
        Sync => "SYNC",
        Async => "ASYNC",
        ParallelSync => "PARALLELSYNC",
    }
);

impl TransmitMode {
    pub fn is_sync(&self) -> bool {
        matches!(self, TransmitMode::Sync | TransmitMode::ParallelSync)
    }
}

oracle_enum!(
    /// `V$ARCHIVE_DEST.STATUS`.
    DestStatus {
        Valid => "VALID",
        Inactive => "INACTIVE",
        Deferred => "DEFERRED",
        Error => "ERROR",
        Disabled => "DISABLED",
        BadParam => "BAD PARAM",
        Alternate => "ALTERNATE",
        Full => "FULL",
    }
);

oracle_enum!(
    /// `V$LOG.STATUS` / `V$STANDBY_LOG.STATUS`.
    LogStatus {
        Current => "CURRENT",
        Active => "ACTIVE",
        Inactive => "INACTIVE",
        Unused => "UNUSED",
        Unassigned => "UNASSIGNED",
        Clearing => "CLEARING",
        ClearingCurrent => "CLEARING_CURRENT",
    }
);

/// Why a whole sample failed. Serialized in snake_case, as the contract's example shows.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum SampleErrorKind {
    ConnectionLost,
    Timeout,
    MissingGrant,
    InstanceDown,
    NoListener,
    BadCredentials,
    NoClientLibrary,
    Other(String),
}

impl SampleErrorKind {
    pub fn as_str(&self) -> &str {
        match self {
            SampleErrorKind::ConnectionLost => "connection_lost",
            SampleErrorKind::Timeout => "timeout",
            SampleErrorKind::MissingGrant => "missing_grant",
            SampleErrorKind::InstanceDown => "instance_down",
            SampleErrorKind::NoListener => "no_listener",
            SampleErrorKind::BadCredentials => "bad_credentials",
            SampleErrorKind::NoClientLibrary => "no_client_library",
            SampleErrorKind::Other(s) => s,
        }
    }
}

impl From<String> for SampleErrorKind {
    fn from(s: String) -> Self {
        match s.as_str() {
            "connection_lost" => SampleErrorKind::ConnectionLost,
            "timeout" => SampleErrorKind::Timeout,
            "missing_grant" => SampleErrorKind::MissingGrant,
            "instance_down" => SampleErrorKind::InstanceDown,
            "no_listener" => SampleErrorKind::NoListener,
            "bad_credentials" => SampleErrorKind::BadCredentials,
            "no_client_library" => SampleErrorKind::NoClientLibrary,
            _ => SampleErrorKind::Other(s),
        }
    }
}

impl From<SampleErrorKind> for String {
    fn from(k: SampleErrorKind) -> String {
        k.as_str().to_string()
    }
}

impl fmt::Display for SampleErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_map_case_insensitively_and_unknown_are_kept() {
        assert_eq!(Role::from("physical standby"), Role::PhysicalStandby);
        assert_eq!(
            OpenMode::from("READ ONLY WITH APPLY"),
            OpenMode::ReadOnlyWithApply
        );
        let odd = DestStatus::from("SOMETHING NEW");
        assert_eq!(odd, DestStatus::Other("SOMETHING NEW".into()));
        assert_eq!(odd.as_str(), "SOMETHING NEW");
        let json = serde_json::to_string(&TransmitMode::Sync).unwrap();
        assert_eq!(json, "\"SYNC\"");
        let back: SampleErrorKind = serde_json::from_str("\"connection_lost\"").unwrap();
        assert_eq!(back, SampleErrorKind::ConnectionLost);
    }
}
