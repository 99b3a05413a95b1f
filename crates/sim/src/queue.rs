//! The timer queue: what is due next on the simulated clock. Entries leave in the order of their
//! (time, sequence number), so two timers due at the same instant fire in the order they were
//! asked for, and a run is the same on every replay.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::time::SimTime;

/// Timers keyed by (time, sequence number), earliest first.
#[derive(Clone, Debug)]
pub(crate) struct TimerQueue<T> {
    heap: BinaryHeap<Entry<T>>,
}

#[derive(Clone, Debug)]
struct Entry<T> {
    at: SimTime,
    seq: u64,
    item: T,
}

impl<T> PartialEq for Entry<T> {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl<T> Eq for Entry<T> {}
impl<T> PartialOrd for Entry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Entry<T> {
    // BinaryHeap is a max-heap: the earliest entry must compare greatest.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

impl<T> Default for TimerQueue<T> {
    fn default() -> Self {
        Self { heap: BinaryHeap::new() }
    }
}

impl<T> TimerQueue<T> {
    /// Files `item` to be due at `at`; `seq` orders it among the entries due at the same time.
    pub(crate) fn push(&mut self, at: SimTime, seq: u64, item: T) {
        self.heap.push(Entry { at, seq, item });
    }

    /// When the earliest entry is due, if any is queued.
    pub(crate) fn next_at(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| e.at)
    }

    /// Takes the earliest entry (the lowest sequence number among those due at the same time).
    /// The queue gives back the room a burst made once it holds a quarter of it (a fleet's start
    /// queues three times the timers it runs on: 16,384 places for 2,000 timers, half a
    /// megabyte, through the hour).
    pub(crate) fn pop(&mut self) -> Option<(SimTime, T)> {
        let entry = self.heap.pop()?;
        if self.heap.capacity() > 1024 && self.heap.len() < self.heap.capacity() / 4 {
            self.heap.shrink_to(self.heap.len() * 2);
        }
        Some((entry.at, entry.item))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(q: &mut TimerQueue<&'static str>) -> Vec<(u64, &'static str)> {
        std::iter::from_fn(|| q.pop()).map(|(at, item)| (at.as_millis(), item)).collect()
    }

    /// After a burst the queue gives back most of its room, and still leaves in order.
    #[test]
    fn room_is_given_back_after_a_burst() {
        let mut q = TimerQueue::default();
        for i in 0..10_000u64 {
            q.push(SimTime::from_millis(10_000 - i), i, "t");
        }
        let burst = q.heap.capacity();
        let mut last = SimTime::ZERO;
        for _ in 0..9_000 {
            let (at, _) = q.pop().expect("queued");
            assert!(at >= last);
            last = at;
        }
        assert!(q.heap.capacity() <= burst / 4, "{} of {burst} kept for {}", q.heap.capacity(), q.heap.len());
        assert_eq!(drain(&mut q).len(), 1_000);
    }

    #[test]
    fn earliest_time_leaves_first() {
        let mut q = TimerQueue::default();
        q.push(SimTime::from_millis(30), 1, "c");
        q.push(SimTime::from_millis(10), 2, "a");
        q.push(SimTime::from_millis(20), 3, "b");
        assert_eq!(q.next_at(), Some(SimTime::from_millis(10)));
        assert_eq!(drain(&mut q), [(10, "a"), (20, "b"), (30, "c")]);
        assert_eq!(q.next_at(), None);
    }

    #[test]
    fn same_time_leaves_in_sequence_order() {
        let mut q = TimerQueue::default();
        q.push(SimTime::from_millis(5), 9, "third");
        q.push(SimTime::from_millis(5), 2, "first");
        q.push(SimTime::from_millis(5), 4, "second");
        q.push(SimTime::from_millis(1), 10, "earlier");
        assert_eq!(drain(&mut q), [(1, "earlier"), (5, "first"), (5, "second"), (5, "third")]);
    }

    #[test]
    fn the_order_holds_through_interleaved_pushes_and_pops() {
        // Pushes and pops interleaved (as the simulation does), against a sorted list.
        let mut q = TimerQueue::default();
        let mut expected: Vec<(u64, u64)> = Vec::new();
        let mut x: u64 = 7;
        for seq in 0..2_000u64 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let at = (x >> 33) % 500;
            q.push(SimTime::from_millis(at), seq, seq);
            expected.push((at, seq));
            if seq % 3 == 0 {
                let (at, item) = q.pop().expect("a queued timer");
                expected.sort_unstable();
                assert_eq!((at.as_millis(), item), expected.remove(0));
            }
        }
        expected.sort_unstable();
        let rest: Vec<(u64, u64)> = std::iter::from_fn(|| q.pop()).map(|(at, item)| (at.as_millis(), item)).collect();
        assert_eq!(rest, expected);
        assert_eq!(q.next_at(), None);
    }
}
