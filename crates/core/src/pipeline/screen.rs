//! The causes as the triage screen asks for them: the screen's [`Driver`] judges every
//! completed instant as it is fed and, after each batch, the newest instant; this fills the
//! drill-down's what-if figures from a model computed off the UI path (a background thread, at
//! most once a minute per finding), so the screen never waits for a simulation.

use super::Driver;
use crate::causes::context::Context;
use crate::causes::whatif::{changes_for, observed_from, WhatIfModel};
use crate::causes::{Assessment, WhatIf};
use dgscope_model::timestamp::Timestamp;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// How often a finding's what-if figures are recomputed (in the data's own time).
const WHAT_IF_EVERY_S: f64 = 60.0;

type Cache = Arc<Mutex<HashMap<&'static str, (Timestamp, Vec<WhatIf>)>>>;

pub struct ScreenAssessor {
    model: Option<Arc<dyn WhatIfModel>>,
    cache: Cache,
    busy: Arc<AtomicBool>,
}

impl ScreenAssessor {
    /// `model`: what-if figures for the drill-down (none: the drill-down shows none).
    pub fn new(model: Option<Arc<dyn WhatIfModel>>) -> Self {
        ScreenAssessor {
            model,
            cache: Arc::default(),
            busy: Arc::default(),
        }
    }

    /// Judges the driver's newest instant now (the causes engine does not advance its
    /// hysteresis twice for one instant) and fills in the what-if figures at hand.
    pub fn assess(&mut self, driver: &mut Driver) -> Assessment {
        driver.assess_now();
        let mut a = driver.assessment().clone();
        let engine = driver.engine();
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
            let observed = observed_from(&Context::new(engine, driver.window(), None));
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
    pub fn into_assessor(mut self) -> Box<dyn FnMut(&mut Driver) -> Assessment + Send> {
        Box::new(move |driver| self.assess(driver))
    }
}
