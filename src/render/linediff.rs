//! Line diffs: which lines of a text are new since an earlier text, and a unified diff between
//! two, by longest common subsequence (the texts are kubectl YAML of one object, a few hundred
//! lines at most).

/// One line of a diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// In both texts.
    Same(&'a str),
    /// Only in the old text.
    Removed(&'a str),
    /// Only in the new text.
    Added(&'a str),
}

/// The diff from `old` to `new`, line by line, removals before additions where they meet.
pub fn diff<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Line<'a>> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let (old_rest, new_rest) = (&old[prefix..], &new[prefix..]);
    let suffix = old_rest.iter().rev().zip(new_rest.iter().rev()).take_while(|(a, b)| a == b).count();
    let (a, b) = (&old_rest[..old_rest.len() - suffix], &new_rest[..new_rest.len() - suffix]);
    let mut out: Vec<Line<'a>> = old[..prefix].iter().map(|l| Line::Same(l)).collect();
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let w = b.len() + 1;
    let mut lcs = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i * w + j] =
                if a[i] == b[j] { lcs[(i + 1) * w + j + 1] + 1 } else { lcs[(i + 1) * w + j].max(lcs[i * w + j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push(Line::Same(a[i]));
            i += 1;
            j += 1;
        } else if j == b.len() || (i < a.len() && lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
            out.push(Line::Removed(a[i]));
            i += 1;
        } else {
            out.push(Line::Added(b[j]));
            j += 1;
        }
    }
    out.extend(old_rest[old_rest.len() - suffix..].iter().map(|l| Line::Same(l)));
    out
}

/// For each line of `new`, whether it is not in `old` (changed or added).
pub fn changed_lines(old: &str, new: &str) -> Vec<bool> {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    diff(&a, &b)
        .into_iter()
        .filter_map(|l| match l {
            Line::Same(_) => Some(false),
            Line::Added(_) => Some(true),
            Line::Removed(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_what_changed() {
        let old = "a: 1\nb: 2\nc: 3\n";
        let new = "a: 1\nb: 5\nc: 3\nd: 4\n";
        assert_eq!(changed_lines(old, new), [false, true, false, true]);
        assert_eq!(changed_lines(new, new), [false; 4]);
        assert_eq!(changed_lines("", "x\n"), [true]);
    }

    #[test]
    fn diffs_keep_order_and_context() {
        let a = ["k: v", "status:", "  ready: \"False\"", "  reason: x", "tail"];
        let b = ["k: v", "status:", "  ready: \"True\"", "  reason: x", "added", "tail"];
        assert_eq!(
            diff(&a, &b),
            [
                Line::Same("k: v"),
                Line::Same("status:"),
                Line::Removed("  ready: \"False\""),
                Line::Added("  ready: \"True\""),
                Line::Same("  reason: x"),
                Line::Added("added"),
                Line::Same("tail"),
            ]
        );
        assert_eq!(diff(&["x"], &[]), [Line::Removed("x")]);
        assert_eq!(diff(&[], &["y"]), [Line::Added("y")]);
    }
}
