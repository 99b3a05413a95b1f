//! A value shared between the world and its checkpoints until one of them changes it.
//!
//! A checkpoint is a copy of the whole world, taken every two or three minutes of a 1,000-node
//! hour; most of what each component holds (a machine's containers and pod workers, the store's
//! maps, the event recorders' spam buckets) does not change between two checkpoints. Kept in a [`Shared`],
//! such a part is copied only when it is written after a checkpoint took it (`Arc::make_mut`), so
//! a checkpoint costs what changed since the last one. Reading and writing look the same as on
//! the value itself (`Deref`, `DerefMut`).
//!
//! The log's object versions share the same way: a Pod's spec is a [`Shared`], so the versions a
//! Pod goes through (its status changing, its spec not) hold one spec between them; so are every
//! object's labels and annotations, and a Node's addresses and runtime handlers (a Node's status
//! PATCH, every ten seconds or so, copies none of them).

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// A value behind an `Arc`, copied on its first write while a checkpoint shares it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    /// Wraps `value`.
    pub fn new(value: T) -> Shared<T> {
        Shared(Arc::new(value))
    }
}

#[cfg(test)]
impl<T> Shared<T> {
    /// Whether the two hold one value (tests of what is shared).
    pub(crate) fn ptr_eq(a: &Shared<T>, b: &Shared<T>) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Shared<T> {
        Shared::new(value)
    }
}

impl<A, T: FromIterator<A>> FromIterator<A> for Shared<T> {
    /// The value collected, then wrapped.
    fn from_iter<I: IntoIterator<Item = A>>(iter: I) -> Shared<T> {
        Shared::new(iter.into_iter().collect())
    }
}

impl<'a, T> IntoIterator for &'a Shared<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;

    /// As the value's.
    fn into_iter(self) -> Self::IntoIter {
        (&*self.0).into_iter()
    }
}

impl<'a, T: Clone> IntoIterator for &'a mut Shared<T>
where
    &'a mut T: IntoIterator,
{
    type Item = <&'a mut T as IntoIterator>::Item;
    type IntoIter = <&'a mut T as IntoIterator>::IntoIter;

    /// As the value's, for writing: copied first if a checkpoint or another version shares it.
    fn into_iter(self) -> Self::IntoIter {
        Arc::make_mut(&mut self.0).into_iter()
    }
}

impl<T: serde::Serialize> serde::Serialize for Shared<T> {
    /// As the value.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (*self.0).serialize(s)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    /// The value, for writing: copied first if a checkpoint still shares it.
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_taken_only_when_a_shared_value_is_written() {
        let mut world = Shared::new(vec![1, 2, 3]);
        let checkpoint = world.clone();
        assert!(Arc::ptr_eq(&world.0, &checkpoint.0), "a checkpoint copies nothing");
        world.push(4);
        assert_eq!((&world[..], &checkpoint[..]), (&[1, 2, 3, 4][..], &[1, 2, 3][..]));
        let before = Arc::as_ptr(&world.0);
        world.push(5);
        assert_eq!(Arc::as_ptr(&world.0), before, "a value no checkpoint shares is written in place");
    }
}
