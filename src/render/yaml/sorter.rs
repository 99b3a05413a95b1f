//! go-yaml v2's `sorter.go`: mapping keys in its "natural" order.

use serde_json::{Map, Value};

pub(super) fn sorted_entries(map: &Map<String, Value>) -> Vec<(&str, &Value)> {
    let entries: Vec<(&str, &Value)> = map.iter().map(|(k, v)| (k.as_str(), v)).collect();
    merge_sort(entries, &|a: &(&str, &Value), b: &(&str, &Value)| key_less(a.0, b.0))
}

/// A stable insertion sort on a "less" function that never panics, whatever the function does
/// (a mapping has a few dozen keys at most).
pub(super) fn merge_sort<T: Copy>(mut items: Vec<T>, less: &dyn Fn(&T, &T) -> bool) -> Vec<T> {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && less(&items[j], &items[j - 1]) {
            items.swap(j, j - 1);
            j -= 1;
        }
    }
    items
}

/// go-yaml's `keyList.Less` for two string keys.
pub(super) fn key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    // Unicode letters and digits natively; in the page, where keys are Kubernetes field names,
    // label and annotation keys (ASCII by validation), ASCII only: Unicode tables would weigh
    // more than the rest of the emitter.
    #[cfg(not(target_arch = "wasm32"))]
    let is_letter = |c: char| c.is_alphabetic();
    #[cfg(not(target_arch = "wasm32"))]
    let is_digit = |c: char| c.is_ascii_digit() || (!c.is_ascii() && c.is_numeric());
    #[cfg(target_arch = "wasm32")]
    let is_letter = |c: char| c.is_ascii_alphabetic();
    #[cfg(target_arch = "wasm32")]
    let is_digit = |c: char| c.is_ascii_digit();
    let digit_value = |c: char| i64::from(u32::from(c)) - i64::from(u32::from('0'));
    for i in 0..ar.len().min(br.len()) {
        if ar[i] == br[i] {
            continue;
        }
        let (al, bl) = (is_letter(ar[i]), is_letter(br[i]));
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            for j in (0..i).rev() {
                if !is_digit(ar[j]) {
                    break;
                }
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && is_digit(ar[ai]) {
            an = an.wrapping_mul(10).wrapping_add(digit_value(ar[ai]));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && is_digit(br[bi]) {
            bn = bn.wrapping_mul(10).wrapping_add(digit_value(br[bi]));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}
