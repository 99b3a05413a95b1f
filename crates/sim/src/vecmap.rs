//! A map kept as a sorted vector.
//!
//! The simulation's maps are small (a handful of nodes, pods, zones) and ordered iteration is part
//! of its determinism. A sorted `Vec` gives both with far less code than a `BTreeMap` per key and
//! value type, which matters in the page's WebAssembly (every generic map instance is compiled
//! separately). Lookups are binary searches; inserting a new key shifts the tail, which is cheap at
//! these sizes and rare even with a thousand nodes (keys are added once).

use std::borrow::Borrow;

/// An ordered map over a sorted vector of pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VecMap<K, V> {
    items: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap { items: Vec::new() }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// An empty map.
    pub const fn new() -> Self {
        VecMap { items: Vec::new() }
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.items.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value for `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.items[i].1)
    }

    /// The value for `key`, mutably.
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.items[i].1)
    }

    /// The value whose key `cmp` finds (`cmp` orders a key against the one sought), without
    /// building a key.
    pub fn get_by(&self, mut cmp: impl FnMut(&K) -> std::cmp::Ordering) -> Option<&V> {
        self.items.binary_search_by(|(k, _)| cmp(k)).ok().map(|i| &self.items[i].1)
    }

    /// Whether `key` is present.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`, returning the old value.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.items[i].1, value)),
            Err(i) => {
                self.items.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.items.remove(i).1)
    }

    /// The value for `key`, inserting `make()` first if it is missing.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.items.insert(i, (key, make()));
                i
            }
        };
        &mut self.items[i].1
    }

    /// Inserts every pair, later ones replacing earlier ones with the same key.
    pub fn extend(&mut self, pairs: impl IntoIterator<Item = (K, V)>) {
        for (k, v) in pairs {
            self.insert(k, v);
        }
    }

    /// The position of `key` (`Ok`), or where it would be inserted (`Err`).
    pub fn position<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.find(key)
    }

    /// Inserts `key` at `i`, which must be its place in the order (as [`VecMap::position`]
    /// returned it).
    pub fn insert_at(&mut self, i: usize, key: K, value: V) {
        debug_assert!(i == 0 || self.items[i - 1].0 < key);
        debug_assert!(i == self.items.len() || key < self.items[i].0);
        self.items.insert(i, (key, value));
    }

    /// Keeps only the entries `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.items.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K, V> VecMap<K, V> {
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> {
        self.items.iter().map(|(k, v)| (k, v))
    }

    /// Keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> {
        self.items.iter().map(|(k, _)| k)
    }

    /// Values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> {
        self.items.iter().map(|(_, v)| v)
    }

    /// Values in key order, mutably.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> {
        self.items.iter_mut().map(|(_, v)| v)
    }

    /// The entry at position `i` (in key order).
    pub fn entry_at(&self, i: usize) -> (&K, &V) {
        let (k, v) = &self.items[i];
        (k, v)
    }

    /// The value at position `i` (in key order), mutably.
    pub fn value_at_mut(&mut self, i: usize) -> &mut V {
        &mut self.items[i].1
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.items.clear();
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut m = VecMap::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

impl<K, V> VecMap<K, V> {
    /// The keys, consuming the map.
    pub fn into_keys(self) -> impl Iterator<Item = K> {
        self.items.into_iter().map(|(k, _)| k)
    }
}

impl<K: Ord> VecMap<K, ()> {
    /// Adds `key` to a set; true if it was not there.
    pub fn add(&mut self, key: K) -> bool {
        self.insert(key, ()).is_none()
    }

    /// Whether the set holds `key`.
    pub fn contains<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.contains_key(key)
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for VecMap<K, V> {
    type Output = V;

    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("key present")
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter().map(|(k, v)| (k, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_an_ordered_map() {
        let mut m: VecMap<String, u32> = VecMap::new();
        assert_eq!(m.insert("b".into(), 2), None);
        assert_eq!(m.insert("a".into(), 1), None);
        assert_eq!(m.insert("c".into(), 3), None);
        assert_eq!(m.insert("b".into(), 20), Some(2));
        assert_eq!(m.keys().map(String::as_str).collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(m.get("b"), Some(&20));
        assert!(m.contains_key("c"));
        *m.get_mut("c").unwrap() += 1;
        assert_eq!(m.remove("a"), Some(1));
        assert_eq!(m.get("a"), None);
        *m.get_or_insert_with("d".into(), || 0) += 5;
        m.retain(|_, v| *v != 4);
        assert_eq!(m.iter().map(|(k, v)| (k.as_str(), *v)).collect::<Vec<_>>(), [("b", 20), ("d", 5)]);
        assert_eq!(m.len(), 2);
    }
}
