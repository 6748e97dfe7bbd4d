//! A bounded history: the oldest entry goes when a new one comes, so memory stays flat over a
//! 24-hour session.

use std::collections::VecDeque;

#[derive(Debug, Clone)]
pub struct Ring<T> {
    items: VecDeque<T>,
    cap: usize,
}

impl<T> Ring<T> {
    pub fn new(cap: usize) -> Self {
        let cap = cap.max(1);
        Ring {
            items: VecDeque::with_capacity(cap.min(4096)),
            cap,
        }
    }

    pub fn push(&mut self, item: T) {
        if self.items.len() == self.cap {
            self.items.pop_front();
        }
        self.items.push_back(item);
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn capacity(&self) -> usize {
        self.cap
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator {
        self.items.iter()
    }

    /// The entries from index `i` on, oldest first.
    pub fn iter_from(&self, i: usize) -> impl DoubleEndedIterator<Item = &T> {
        self.items.range(i.min(self.items.len())..)
    }

    pub fn last(&self) -> Option<&T> {
        self.items.back()
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        self.items.get(i)
    }

    /// The index of the first entry for which `pred` is false, the entries being partitioned
    /// by it (all true first): a binary search.
    pub fn partition_point(&self, pred: impl FnMut(&T) -> bool) -> usize {
        self.items.partition_point(pred)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_up_to_capacity() {
        let mut r = Ring::new(3);
        for i in 0..10 {
            r.push(i);
        }
        assert_eq!(r.len(), 3);
        assert_eq!(r.iter().copied().collect::<Vec<_>>(), vec![7, 8, 9]);
        assert_eq!(r.last(), Some(&9));
        assert_eq!(r.get(0), Some(&7));
        assert_eq!(r.partition_point(|x| *x < 9), 2);
        assert_eq!(r.partition_point(|x| *x < 100), 3);
        assert_eq!(r.iter_from(1).copied().collect::<Vec<_>>(), vec![8, 9]);
        assert_eq!(r.iter_from(7).count(), 0);
    }
}
