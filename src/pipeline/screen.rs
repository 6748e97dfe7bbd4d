//! The causes engine as the triage screen uses it: the pipeline's [`Judge`] assesses the
//! screen's engine after every batch of samples, and this fills the drill-down's what-if figures from a model computed off the UI path (a background thread,
//! at most once a minute per finding), so the screen never waits for a simulation.

use super::Judge;
use crate::causes::context::Context;
use crate::causes::whatif::{changes_for, observed_from, WhatIfModel};
use crate::causes::{Assessment, Thresholds, WhatIf};
use crate::metrics::{Engine, Window};
use crate::timestamp::Timestamp;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often a finding's what-if figures are recomputed (in the data's own time).
const WHAT_IF_EVERY_S: f64 = 60.0;

type Cache = Arc<Mutex<HashMap<&'static str, (Timestamp, Vec<WhatIf>)>>>;

pub struct LiveAssessor {
    judge: Judge,
    model: Option<Arc<dyn WhatIfModel>>,
    cache: Cache,
    busy: Arc<AtomicBool>,
}

impl LiveAssessor {
    pub fn new(thresholds: Thresholds, model: Option<Arc<dyn WhatIfModel>>) -> Self {
        LiveAssessor {
            // The screen's window: the last minute (as `DriverConfig::last_minute`).
            judge: Judge::new(Window::Last(Duration::from_secs(60)), thresholds),
            model,
            cache: Arc::default(),
            busy: Arc::default(),
        }
    }

    pub fn assess(&mut self, engine: &Engine) -> Assessment {
        self.judge.assess_now(engine);
        let mut a = self.judge.assessment().clone();
        let now = engine.latest().unwrap_or_default();
        let mut stale = Vec::new();
        {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            for f in &mut a.findings {
                match cache.get(f.id) {
                    Some((at, w)) => {
                        f.what_if = w.clone();
                        if now.secs_since(*at) >= WHAT_IF_EVERY_S {
                            stale.push(f.id);
                        }
                    }
                    None => stale.push(f.id),
                }
            }
        }
        if let Some(model) = &self.model {
            let observed = observed_from(&Context::new(engine, self.judge.window(), None));
            let jobs: Vec<_> = stale
                .into_iter()
                .filter(|id| !changes_for(id, &observed).is_empty())
                .collect();
            if !jobs.is_empty() && !self.busy.swap(true, Ordering::AcqRel) {
                let (model, cache, busy) = (model.clone(), self.cache.clone(), self.busy.clone());
                let spawned = std::thread::Builder::new()
                    .name("dgscope-what-if".into())
                    .spawn(move || {
                        for id in jobs {
                            let figures: Vec<WhatIf> = changes_for(id, &observed)
                                .into_iter()
                                .filter_map(|c| model.what_if(&observed, c))
                                .collect();
                            if let Ok(mut c) = cache.lock() {
                                c.insert(id, (now, figures));
                            }
                        }
                        busy.store(false, Ordering::Release);
                    });
                if spawned.is_err() {
                    self.busy.store(false, Ordering::Release);
                }
            }
        }
        a
    }

    /// The screen's form: a boxed closure.
    pub fn into_assessor(mut self) -> Box<dyn FnMut(&Engine) -> Assessment + Send> {
        Box::new(move |engine| self.assess(engine))
    }
}
