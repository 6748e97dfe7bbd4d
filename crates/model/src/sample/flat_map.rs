//! `FlatMap`: the keyed parts of a sample (events, statistics, the time model, OS figures,
//! iostat) as one sorted `Vec` of pairs. A sample holds 2–20 entries per map, and the
//! engine keeps every sample of its raw span: a `BTreeMap` allocates a node of 11 slots
//! however few entries it has (an events map of 5 took 1.5 KB where its entries need 0.7),
//! and the maps were a third of each pair's memory: `serve` with 200 twin pairs went from
//! 480 to 338 MB with this (benches/serve.rs). Lookups are a binary search; iteration is in
//! key order, as a `BTreeMap`'s; JSON is the same object.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;

/// A map kept as a `Vec` of `(key, value)` sorted by key, keys unique.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct FlatMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for FlatMap<K, V> {
    fn default() -> Self {
        FlatMap {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> FlatMap<K, V> {
    pub const fn new() -> Self {
        FlatMap {
            entries: Vec::new(),
        }
    }

    fn find<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).is_ok()
    }

    /// Inserts or replaces; the value replaced, if any. Keys arriving in order (a recording,
    /// a sorted query) are appended without a move.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        if self.entries.last().is_none_or(|(k, _)| *k < key) {
            self.entries.push((key, value));
            return None;
        }
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// The value at `key`, inserted by `make` first if there is none (appended, as
    /// [`FlatMap::insert`], when keys arrive in order).
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        if self.entries.last().is_none_or(|(k, _)| *k < key) {
            self.entries.push((key, make()));
            let last = self.entries.len() - 1;
            return &mut self.entries[last].1;
        }
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K, V> FlatMap<K, V> {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter(self.entries.iter())
    }

    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (&K, &mut V)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    /// Gives back spare capacity: a map filled by inserts keeps up to twice what it holds,
    /// and a sample is kept for minutes.
    pub fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
    }
}

/// Iterates a [`FlatMap`] in key order, as `(&K, &V)`.
#[derive(Clone)]
pub struct Iter<'a, K, V>(std::slice::Iter<'a, (K, V)>);

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

impl<'a, K, V> IntoIterator for &'a FlatMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K, V> IntoIterator for FlatMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for FlatMap<K, V> {
    /// As a `BTreeMap` collects: sorted by key, the last of a repeated key kept.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut entries: Vec<(K, V)> = iter.into_iter().collect();
        // Stable: among equal keys the last collected stays last, and is the one kept.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(K, V)> = Vec::with_capacity(entries.len());
        for e in entries {
            match out.last_mut() {
                Some(last) if last.0 == e.0 => *last = e,
                _ => out.push(e),
            }
        }
        FlatMap { entries: out }
    }
}

impl<K: Ord, V> Extend<(K, V)> for FlatMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for FlatMap<K, V> {
    fn from(a: [(K, V); N]) -> Self {
        a.into_iter().collect()
    }
}

impl<K, Q, V> std::ops::Index<&Q> for FlatMap<K, V>
where
    K: Ord + Borrow<Q>,
    Q: Ord + ?Sized,
{
    type Output = V;
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for the key in the map")
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for FlatMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Serialize, V: Serialize> Serialize for FlatMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for FlatMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Seen<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for Seen<K, V> {
            type Value = FlatMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut m = FlatMap {
                    entries: Vec::with_capacity(a.size_hint().unwrap_or(0).min(256)),
                };
                // A repeated key: the last wins, as in serde's BTreeMap.
                while let Some((k, v)) = a.next_entry()? {
                    m.insert(k, v);
                }
                Ok(m)
            }
        }
        d.deserialize_map(Seen(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Whatever order keys arrive in, with repeats and removals, the map agrees with a
    /// `BTreeMap` fed the same: same entries, same order, same answers.
    #[test]
    fn behaves_as_a_btree_map() {
        let mut seed = 7u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut flat = FlatMap::new();
        let mut tree = BTreeMap::new();
        for _ in 0..2000 {
            let k = next() % 40;
            let v = next();
            match next() % 4 {
                0 => assert_eq!(flat.remove(&k), tree.remove(&k)),
                1 => {
                    *flat.get_or_insert_with(k, || 0) += 1;
                    *tree.entry(k).or_insert(0) += 1;
                }
                _ => assert_eq!(flat.insert(k, v), tree.insert(k, v)),
            }
            assert_eq!(flat.get(&k), tree.get(&k));
            assert_eq!(flat.len(), tree.len());
        }
        let a: Vec<_> = flat.iter().collect();
        let b: Vec<_> = tree.iter().collect();
        assert_eq!(a, b);
        assert_eq!(flat.first_key_value(), tree.first_key_value());
        assert_eq!(flat.last_key_value(), tree.last_key_value());
    }

    #[test]
    fn collects_sorted_with_the_last_of_a_repeated_key() {
        let m: FlatMap<&str, u32> = [("b", 1), ("a", 2), ("b", 3)].into_iter().collect();
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![(&"a", &2), (&"b", &3)]);
        assert_eq!(m["b"], 3);
    }

    #[test]
    fn json_is_the_same_object_as_a_btree_map() {
        let tree: BTreeMap<String, u64> = [("redo size".into(), 5), ("user commits".into(), 2)]
            .into_iter()
            .collect();
        let flat: FlatMap<String, u64> = tree.clone().into_iter().collect();
        assert_eq!(
            serde_json::to_string(&flat).unwrap(),
            serde_json::to_string(&tree).unwrap()
        );
        let back: FlatMap<String, u64> = serde_json::from_str(r#"{"z":1,"a":2,"z":3}"#).unwrap();
        assert_eq!(
            back.iter().collect::<Vec<_>>(),
            vec![(&"a".to_string(), &2), (&"z".to_string(), &3)]
        );
    }
}
