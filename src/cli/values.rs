//! Values the shell completes: twin scenarios, built-in themes and the wait events whose
//! histograms a recording holds. The flags still take a
//! plain string (the scenario's parser accepts `_` and any case, a user theme any name, and
//! their messages name `dgscope twin list` / `dgscope themes`); these only tell clap, and so
//! the completion scripts, which names exist.

use clap::builder::{PossibleValue, TypedValueParser};
use std::ffi::OsStr;

/// A string flag whose known values are `names()` (with a one-line help each).
#[derive(Clone, Copy)]
pub struct Named {
    names: fn() -> Vec<(&'static str, &'static str)>,
}

impl TypedValueParser for Named {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            (self.names)()
                .into_iter()
                .map(|(n, help)| PossibleValue::new(n).help(help)),
        ))
    }
}

/// The twin's scenarios, with what each simulates.
pub fn scenarios() -> Named {
    Named {
        names: || {
            crate::source::twin::Scenario::ALL
                .iter()
                .map(|s| (s.name(), s.description()))
                .collect()
        },
    }
}

/// The built-in colour themes.
pub fn themes() -> Named {
    Named {
        names: || {
            crate::ui::theme::BUILTIN
                .iter()
                .map(|(name, _)| (*name, "built-in theme"))
                .collect()
        },
    }
}

/// The wait events whose histograms a recording holds (`report histogram --event`), with the
/// side that samples each. Any other name is still taken (and said to be absent if it is).
pub fn events() -> Named {
    Named {
        names: dgscope_oracle::sql::histogram_events,
    }
}
