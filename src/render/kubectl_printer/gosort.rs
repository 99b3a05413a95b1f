//! Go's `sort.Sort` (pattern-defeating quicksort, Go 1.19 and later), ported step for step.
//!
//! `sort.Sort` is not stable: where kubectl sorts by a key with ties (Events by `lastTimestamp`,
//! many of which fall in the same second), the order of the tied elements is whatever this
//! algorithm leaves, so nodeline runs the same algorithm on the same input order.

/// `sort.Sort(data)` with `Less(i, j) = less(&v[i], &v[j])`.
pub fn sort<T: Clone>(v: &mut [T], less: &dyn Fn(&T, &T) -> bool) {
    let n = v.len();
    if n <= 1 {
        return;
    }
    // The algorithm runs on a permutation (one copy of its code, whatever `T` is), then the
    // permutation is applied.
    let items: Vec<T> = v.to_vec();
    let mut idx: Vec<usize> = (0..n).collect();
    let limit = usize::BITS - n.leading_zeros();
    let mut d = Data { v: &mut idx, less: &|a, b| less(&items[a], &items[b]) };
    pdqsort(&mut d, 0, n, limit as usize);
    for (slot, &i) in v.iter_mut().zip(&idx) {
        *slot = items[i].clone();
    }
}

struct Data<'a> {
    v: &'a mut [usize],
    less: &'a dyn Fn(usize, usize) -> bool,
}

impl Data<'_> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(self.v[i], self.v[j])
    }
    fn swap(&mut self, i: usize, j: usize) {
        self.v.swap(i, j);
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

fn insertion_sort(d: &mut Data<'_>, a: usize, b: usize) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && d.less(j, j - 1) {
            d.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sift_down(d: &mut Data<'_>, lo: usize, hi: usize, first: usize) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            return;
        }
        if child + 1 < hi && d.less(first + child, first + child + 1) {
            child += 1;
        }
        if !d.less(first + root, first + child) {
            return;
        }
        d.swap(first + root, first + child);
        root = child;
    }
}

fn heap_sort(d: &mut Data<'_>, a: usize, b: usize) {
    let first = a;
    let hi = b - a;
    for i in (0..hi.div_ceil(2)).rev() {
        sift_down(d, i, hi, first);
    }
    for i in (0..hi).rev() {
        d.swap(first, first + i);
        sift_down(d, 0, i, first);
    }
}

fn pdqsort(d: &mut Data<'_>, mut a: usize, mut b: usize, mut limit: usize) {
    const MAX_INSERTION: usize = 12;
    let mut was_balanced = true;
    let mut was_partitioned = true;
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(d, a, b);
            return;
        }
        if limit == 0 {
            heap_sort(d, a, b);
            return;
        }
        if !was_balanced {
            break_patterns(d, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(d, a, b);
        if hint == Hint::Decreasing {
            reverse_range(d, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = Hint::Increasing;
        }
        if was_balanced && was_partitioned && hint == Hint::Increasing && partial_insertion_sort(d, a, b) {
            return;
        }
        if a > 0 && !d.less(a - 1, pivot) {
            a = partition_equal(d, a, b, pivot);
            continue;
        }
        let (mid, already) = partition(d, a, b, pivot);
        was_partitioned = already;
        let (left, right) = (mid - a, b - mid);
        let balance_threshold = length / 8;
        if left < right {
            was_balanced = left >= balance_threshold;
            pdqsort(d, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right >= balance_threshold;
            pdqsort(d, mid + 1, b, limit);
            b = mid;
        }
    }
}

fn partition(d: &mut Data<'_>, a: usize, b: usize, pivot: usize) -> (usize, bool) {
    d.swap(a, pivot);
    // i and j are inclusive; j can go below a + 1 (to a), so work in isize.
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    let ai = a;
    while i <= j && d.less(i as usize, ai) {
        i += 1;
    }
    while i <= j && !d.less(j as usize, ai) {
        j -= 1;
    }
    if i > j {
        d.swap(j as usize, ai);
        return (j as usize, true);
    }
    d.swap(i as usize, j as usize);
    i += 1;
    j -= 1;
    loop {
        while i <= j && d.less(i as usize, ai) {
            i += 1;
        }
        while i <= j && !d.less(j as usize, ai) {
            j -= 1;
        }
        if i > j {
            break;
        }
        d.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
    }
    d.swap(j as usize, ai);
    (j as usize, false)
}

fn partition_equal(d: &mut Data<'_>, a: usize, b: usize, pivot: usize) -> usize {
    d.swap(a, pivot);
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    loop {
        while i <= j && !d.less(a, i as usize) {
            i += 1;
        }
        while i <= j && d.less(a, j as usize) {
            j -= 1;
        }
        if i > j {
            break;
        }
        d.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
    }
    i as usize
}

fn partial_insertion_sort(d: &mut Data<'_>, a: usize, b: usize) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !d.less(i, i - 1) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        d.swap(i, i - 1);
        // Go walks down to index 1 here (not to `a`).
        if i - a >= 2 {
            let mut j = i - 1;
            while j >= 1 {
                if !d.less(j, j - 1) {
                    break;
                }
                d.swap(j, j - 1);
                j -= 1;
            }
        }
        if b - i >= 2 {
            for j in i + 1..b {
                if !d.less(j, j - 1) {
                    break;
                }
                d.swap(j, j - 1);
            }
        }
    }
    false
}

fn break_patterns(d: &mut Data<'_>, a: usize, b: usize) {
    let length = b - a;
    if length >= 8 {
        let mut random = length as u64;
        let modulus = 1u64 << (u64::BITS - (length as u64).leading_zeros());
        let start = a + (length / 4) * 2 - 1;
        for idx in start..=start + 2 {
            // Go's xorshift: <<13, >>17, <<5 (what kubectl's Event order shows).
            random ^= random << 13;
            random ^= random >> 17;
            random ^= random << 5;
            let mut other = (random & (modulus - 1)) as usize;
            if other >= length {
                other -= length;
            }
            d.swap(idx, a + other);
        }
    }
}

fn choose_pivot(d: &mut Data<'_>, a: usize, b: usize) -> (usize, Hint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: usize = 4 * 3;
    let l = b - a;
    let mut swaps = 0;
    let mut i = a + l / 4;
    let mut j = a + l / 4 * 2;
    let mut k = a + l / 4 * 3;
    if l >= 8 {
        if l >= SHORTEST_NINTHER {
            i = median_adjacent(d, i, &mut swaps);
            j = median_adjacent(d, j, &mut swaps);
            k = median_adjacent(d, k, &mut swaps);
        }
        j = median(d, i, j, k, &mut swaps);
    }
    match swaps {
        0 => (j, Hint::Increasing),
        MAX_SWAPS => (j, Hint::Decreasing),
        _ => (j, Hint::Unknown),
    }
}

fn order2(d: &Data<'_>, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
    if d.less(b, a) {
        *swaps += 1;
        (b, a)
    } else {
        (a, b)
    }
}

fn median(d: &Data<'_>, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
    let (a, b) = order2(d, a, b, swaps);
    let (b, c) = order2(d, b, c, swaps);
    let _ = c;
    let (_, b) = order2(d, a, b, swaps);
    b
}

fn median_adjacent(d: &Data<'_>, a: usize, swaps: &mut usize) -> usize {
    median(d, a - 1, a, a + 1, swaps)
}

fn reverse_range(d: &mut Data<'_>, a: usize, b: usize) {
    let (mut i, mut j) = (a, b - 1);
    while i < j {
        d.swap(i, j);
        i += 1;
        j -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(mut v: Vec<(u32, usize)>) {
        let n = v.len();
        sort(&mut v, &|a, b| a.0 < b.0);
        assert!(v.windows(2).all(|w| w[0].0 <= w[1].0), "{v:?}");
        let mut seen: Vec<usize> = v.iter().map(|x| x.1).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..n).collect::<Vec<_>>(), "a permutation");
    }

    #[test]
    fn sorts_every_shape() {
        let mut seed = 7u64;
        for n in [0usize, 1, 2, 5, 12, 13, 40, 49, 50, 51, 200, 1000] {
            let random: Vec<(u32, usize)> = (0..n)
                .map(|i| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    ((seed >> 40) as u32 % 7, i)
                })
                .collect();
            check(random);
            check((0..n).map(|i| (i as u32, i)).collect());
            check((0..n).rev().map(|i| (i as u32, i)).collect());
            check((0..n).map(|i| ((i % 3) as u32, i)).collect());
            check((0..n).map(|i| (if i == n / 2 { 0 } else { 5 }, i)).collect());
        }
    }

    #[test]
    fn ties_among_more_than_twelve_fall_where_go_puts_them() {
        // The Events of `kubectl describe node node-1` after the kubelet restarted (lastTimestamp
        // in seconds after 09:00), in the order kubectl 1.32 printed them from this input.
        let input = [
            ("RegisteredNode", 1),
            ("NodeNotReady", 171),
            ("Starting", 0),
            ("NodeHasNoDiskPressure", 0),
            ("NodeHasSufficientMemory", 0),
            ("NodeHasSufficientPID", 0),
            ("NodeAllocatableEnforced", 0),
            ("NodeReady", 1),
            ("Starting-2", 270),
            ("NodeNotReady-2", 270),
            ("NodeHasNoDiskPressure-2", 270),
            ("NodeHasSufficientMemory-2", 270),
            ("NodeHasSufficientPID-2", 270),
            ("NodeAllocatableEnforced-2", 270),
            ("NodeReady-2", 271),
        ];
        let mut v = input.to_vec();
        sort(&mut v, &|a, b| a.1 < b.1);
        let got: Vec<&str> = v.iter().map(|x| x.0).collect();
        assert_eq!(
            got,
            [
                "NodeAllocatableEnforced",
                "Starting",
                "NodeHasNoDiskPressure",
                "NodeHasSufficientMemory",
                "NodeHasSufficientPID",
                "RegisteredNode",
                "NodeReady",
                "NodeNotReady",
                "Starting-2",
                "NodeNotReady-2",
                "NodeHasNoDiskPressure-2",
                "NodeHasSufficientMemory-2",
                "NodeHasSufficientPID-2",
                "NodeAllocatableEnforced-2",
                "NodeReady-2",
            ]
        );
    }

    #[test]
    fn ties_keep_the_order_insertion_sort_gives_up_to_twelve() {
        // Twelve or fewer elements: insertion sort, which is stable.
        let mut v: Vec<(u32, char)> = vec![(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd'), (0, 'e')];
        sort(&mut v, &|a, b| a.0 < b.0);
        assert_eq!(v.iter().map(|x| x.1).collect::<String>(), "ebdac");
    }
}
