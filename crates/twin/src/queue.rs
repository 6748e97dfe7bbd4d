//! The event queue: a calendar queue (R. Brown, 1988) of `(time ns, id)`. Time is cut into
//! 65 µs days over a 67 ms year; an event goes to its day's bucket, and popping walks the days
//! in order, so push and pop cost O(1) for the twin's dense, near-future events (a binary
//! heap spent 40 % of the run). Ties break on the id, so runs stay deterministic.
//!
//! The layout is flat, because the queue is a fifth of the twin's time: each day keeps its
//! first events in place in one array (a push touches one cache line, not a `Vec` header and
//! then its heap block), a bitmap of the days holding anything lets the walk jump over empty
//! days, and a day's rare further events spill into a `Vec` of their own. (Comparing a day's
//! slots without branches measured slower: the predictor does well on these.)
//!
//! Which event pops is the smallest `(time, id)`, whatever the layout, so the order is the
//! same as any other exact priority queue's.

const DAY_SHIFT: u32 = 16;
const DAYS: usize = 1024;
/// Events a day holds in place (32 KB for the year, within a core's L1 cache; a day rarely
/// holds more, ~120 pending events being spread over the year); more spill.
const WIDTH: usize = 2;
const WORDS: usize = DAYS / 64;

type Entry = (u64, u32);

pub(crate) struct EventQueue {
    /// Bucket `b`'s events in place: `slots[b][..lens[b]]`.
    slots: Box<[[Entry; WIDTH]; DAYS]>,
    lens: Box<[u8; DAYS]>,
    /// Bucket `b`'s events beyond `WIDTH`: non-empty only while its slots are full.
    spill: Vec<Vec<Entry>>,
    /// Bit `b` set: bucket `b` holds at least one event (of this year or a later one).
    occupied: [u64; WORDS],
    len: usize,
    /// The day being served (absolute: time >> DAY_SHIFT).
    day: u64,
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue {
            slots: Box::new([[(0, 0); WIDTH]; DAYS]),
            lens: Box::new([0; DAYS]),
            spill: (0..DAYS).map(|_| Vec::new()).collect(),
            occupied: [0; WORDS],
            len: 0,
            day: 0,
        }
    }
}

/// Where an event sits: its bucket, and a slot below `WIDTH` or else `spill[i - WIDTH]`.
type Loc = (usize, usize);

#[inline]
fn bucket_of(day: u64) -> usize {
    (day as usize) & (DAYS - 1)
}

impl EventQueue {
    #[inline]
    pub(crate) fn push(&mut self, key: u64, value: u32) {
        let day = key >> DAY_SHIFT;
        let b = bucket_of(day);
        let n = usize::from(self.lens[b]);
        if n < WIDTH {
            self.slots[b][n] = (key, value);
            self.lens[b] += 1;
        } else {
            self.spill[b].push((key, value));
        }
        self.occupied[b / 64] |= 1 << (b % 64);
        self.len += 1;
        // A peek may have walked past this day already (an event pushed from outside the
        // event loop, e.g. a new session at a scenario switch).
        self.day = self.day.min(day);
    }

    /// Days from bucket `b` to the next bucket holding anything (0 if `b` does), circularly.
    #[inline]
    fn to_next_occupied(&self, b: usize) -> usize {
        let (w, bit) = (b / 64, b % 64);
        let here = self.occupied[w] & (!0u64 << bit);
        if here != 0 {
            return here.trailing_zeros() as usize - bit;
        }
        self.to_next_word(w, b)
    }

    #[inline(never)]
    fn to_next_word(&self, w: usize, b: usize) -> usize {
        for k in 1..=WORDS {
            let wi = (w + k) % WORDS;
            let m = self.occupied[wi];
            if m != 0 {
                let at = wi * 64 + m.trailing_zeros() as usize;
                return (at + DAYS - b) % DAYS;
            }
        }
        DAYS
    }

    /// The smallest event of the day being served in bucket `b`, if it has one.
    #[inline]
    fn best_in(&self, b: usize) -> Option<usize> {
        let n = usize::from(self.lens[b]);
        let mut best: Option<(usize, Entry)> = None;
        for (i, e) in self.slots[b].iter().enumerate().take(n) {
            if e.0 >> DAY_SHIFT == self.day && best.is_none_or(|(_, x)| *e < x) {
                best = Some((i, *e));
            }
        }
        if n == WIDTH {
            for (j, e) in self.spill[b].iter().enumerate() {
                if e.0 >> DAY_SHIFT == self.day && best.is_none_or(|(_, x)| *e < x) {
                    best = Some((WIDTH + j, *e));
                }
            }
        }
        best.map(|(i, _)| i)
    }

    /// Bucket and place of the smallest event, walking the calendar forward to it.
    #[inline]
    fn find(&mut self) -> Option<Loc> {
        if self.len == 0 {
            return None;
        }
        let mut walked = 0;
        loop {
            let d = self.to_next_occupied(bucket_of(self.day));
            walked += d;
            if walked >= DAYS {
                return Some(self.jump_to_earliest());
            }
            self.day += d as u64;
            let b = bucket_of(self.day);
            if let Some(i) = self.best_in(b) {
                return Some((b, i));
            }
            self.day += 1;
            walked += 1;
        }
    }

    /// Nothing within a year: jump straight to the earliest event.
    #[cold]
    #[inline(never)]
    fn jump_to_earliest(&mut self) -> Loc {
        let min = (0..DAYS)
            .flat_map(|b| {
                self.slots[b][..usize::from(self.lens[b])]
                    .iter()
                    .chain(self.spill[b].iter())
            })
            .min()
            .copied()
            .expect("len > 0");
        self.day = min.0 >> DAY_SHIFT;
        let b = bucket_of(self.day);
        (
            b,
            self.best_in(b)
                .expect("the earliest event is in its day's bucket"),
        )
    }

    #[inline]
    fn get(&self, (b, i): Loc) -> Entry {
        match self.slots[b].get(i) {
            Some(e) => *e,
            None => self.spill[b][i - WIDTH],
        }
    }

    #[inline]
    fn remove(&mut self, (b, i): Loc) -> Entry {
        self.len -= 1;
        if i >= WIDTH {
            return self.spill[b].swap_remove(i - WIDTH);
        }
        let n = usize::from(self.lens[b]);
        let e = self.slots[b][i];
        if n == WIDTH {
            if let Some(s) = self.spill[b].pop() {
                // Keep the slots full while the bucket spills.
                self.slots[b][i] = s;
                return e;
            }
        }
        self.slots[b][i] = self.slots[b][n - 1];
        self.lens[b] -= 1;
        // Without a branch: whether the day empties is a coin toss for the predictor.
        self.occupied[b / 64] &= !(u64::from(n == 1) << (b % 64));
        e
    }

    /// The smallest event if its time is ≤ `t_end` (one calendar walk, not peek + pop).
    #[inline]
    pub(crate) fn pop_until(&mut self, t_end: u64) -> Option<(u64, u32)> {
        let at = self.find()?;
        if self.get(at).0 > t_end {
            return None;
        }
        Some(self.remove(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn pops_in_key_order_against_a_sorted_reference() {
        let mut h = EventQueue::default();
        let mut reference: Vec<(u64, u32)> = Vec::new();
        let mut r = Rng::new(9);
        let mut now = 0u64;
        let mut popped = Vec::new();
        for i in 0..20_000u32 {
            if i % 3 != 2 {
                // Mostly near keys, some ties, some beyond the calendar's year.
                let k = match i % 7 {
                    0 => now,
                    1 => now + (r.exp(5e8) as u64),
                    _ => now + (r.exp(50_000.0) as u64),
                };
                h.push(k, i);
                reference.push((k, i));
            } else if let Some(e) = h.pop_until(now + 100_000) {
                assert!(e.0 >= now);
                now = e.0;
                popped.push(e);
            }
        }
        while let Some(e) = h.pop_until(u64::MAX) {
            popped.push(e);
        }
        assert_eq!(h.pop_until(u64::MAX), None);
        assert_eq!(popped.len(), reference.len());
        assert!(popped.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn spilled_days_ties_and_late_pushes_pop_exactly_as_a_sorted_set() {
        // Bursts far beyond a day's slots (one day, one time, or all in a far-off year),
        // a push at a time the walk has passed already, and pops interleaved.
        let mut q = EventQueue::default();
        let mut reference = std::collections::BTreeSet::new();
        let mut r = Rng::new(4);
        let mut now = 0u64;
        let mut id = 0u32;
        let mut push = |q: &mut EventQueue, set: &mut std::collections::BTreeSet<_>, k| {
            id += 1;
            q.push(k, id);
            set.insert((k, id));
        };
        for round in 0..400u64 {
            let day0 = now + 70_000;
            for j in 0..(round % 23) {
                let k = match round % 4 {
                    0 => day0 + j,
                    1 => day0,
                    2 => now + 3_000_000_000 + j * 7,
                    _ => now + (r.exp(30_000.0) as u64),
                };
                push(&mut q, &mut reference, k);
            }
            // Walks the calendar past `now` when nothing is due, then pushes at `now`.
            match q.pop_until(now) {
                None => push(&mut q, &mut reference, now),
                got => assert_eq!(got, reference.pop_first()),
            }
            for _ in 0..(round % 5) {
                let got = q.pop_until(now + 200_000);
                let want = reference.first().copied().filter(|e| e.0 <= now + 200_000);
                assert_eq!(got, want);
                if let Some(e) = got {
                    reference.remove(&e);
                    now = e.0;
                }
            }
        }
        while let Some(e) = q.pop_until(u64::MAX) {
            assert_eq!(Some(e), reference.pop_first());
        }
        assert!(reference.is_empty());
    }
}
