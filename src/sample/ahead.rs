//! Parsing on one thread while the engine consumes on the other. Measured by
//! `benches/recording_load.rs` on a shared 2-core machine it is no faster than one thread
//! (1.27 s against 1.29 s for a day; slower when the machine is busy): parsing is 85% of a
//! pass, so the engine's share is too small to hide. No command uses it; the bench keeps
//! measuring it.

use std::sync::mpsc::{sync_channel, Receiver};
use std::thread::JoinHandle;

/// Entries handed over at a time: the channel costs a little per send, not per entry.
const BATCH: usize = 256;
/// Batches parsed ahead at most, so memory stays bounded however slow the consumer.
const AHEAD: usize = 8;

/// An iterator whose items are produced by `iter` on another thread.
pub struct ReadAhead<T> {
    rx: Option<Receiver<Vec<T>>>,
    cur: std::vec::IntoIter<T>,
    worker: Option<JoinHandle<()>>,
}

/// Runs `iter` on a thread of its own, `BATCH` items at a time. Dropping the result early
/// stops the thread at its next hand-over.
pub fn read_ahead<I>(iter: I) -> ReadAhead<I::Item>
where
    I: Iterator + Send + 'static,
    I::Item: Send + 'static,
{
    let (tx, rx) = sync_channel::<Vec<I::Item>>(AHEAD);
    let worker = std::thread::Builder::new()
        .name("dgscope-parse".into())
        .spawn(move || {
            let mut batch = Vec::with_capacity(BATCH);
            for x in iter {
                batch.push(x);
                if batch.len() == BATCH {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                    if tx.send(full).is_err() {
                        return;
                    }
                }
            }
            if !batch.is_empty() {
                let _ = tx.send(batch);
            }
        })
        .ok();
    ReadAhead {
        rx: Some(rx),
        cur: Vec::new().into_iter(),
        worker,
    }
}

impl<T> Iterator for ReadAhead<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        loop {
            if let Some(x) = self.cur.next() {
                return Some(x);
            }
            match self.rx.as_ref()?.recv() {
                Ok(b) => self.cur = b.into_iter(),
                Err(_) => {
                    self.rx = None;
                    if let Some(w) = self.worker.take() {
                        // A panic in the parser is a bug: surface it here, not silently.
                        if let Err(p) = w.join() {
                            std::panic::resume_unwind(p);
                        }
                    }
                    return None;
                }
            }
        }
    }
}

impl<T> Drop for ReadAhead<T> {
    fn drop(&mut self) {
        // Closing the channel makes the worker's next send fail, so it ends on its own.
        self.rx = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yields_everything_in_order_and_stops_early_cleanly() {
        let got: Vec<u32> = read_ahead(0..10_000u32).collect();
        assert_eq!(got, (0..10_000).collect::<Vec<_>>());
        let first: Vec<u32> = read_ahead(0..u32::MAX).take(3).collect();
        assert_eq!(first, [0, 1, 2]);
    }
}
