//! Go's `text/tabwriter`, as kubectl uses it (and `github.com/liggitt/tabwriter`, the fork
//! kubectl's table printer uses, which adds `RememberWidths`).
//!
//! Text is cut into cells at tabs; a line's last cell (the text after its last tab) is not part
//! of any column. A column is a run of consecutive lines that all have a cell in it: its width is
//! the widest cell in the run plus the padding (at least `minwidth`). A line without a tab ends
//! every column above it and flushes what came before (so `kubectl describe`'s section titles
//! such as `Conditions:` start new alignments). Widths count characters (runes), not bytes.
//! Padding is always spaces here: kubectl never pads with tabs, and never uses the escape or
//! HTML-filter modes.

/// One cell: its text and whether a tab ended it.
#[derive(Clone, Debug, Default)]
struct Cell {
    text: String,
    width: usize,
    htab: bool,
}

/// A tab writer writing into a string.
#[derive(Debug)]
pub struct TabWriter {
    minwidth: usize,
    padding: usize,
    remember_widths: bool,
    lines: Vec<Vec<Cell>>,
    cell: Cell,
    widths: Vec<usize>,
    maxwidths: Vec<usize>,
    out: String,
}

impl TabWriter {
    /// `tabwriter.NewWriter(out, minwidth, tabwidth, padding, ' ', flags)`; `tabwidth` only
    /// matters when padding with tabs, which kubectl never does.
    pub fn new(minwidth: usize, padding: usize, remember_widths: bool) -> TabWriter {
        TabWriter {
            minwidth,
            padding,
            remember_widths,
            lines: vec![Vec::new()],
            cell: Cell::default(),
            widths: Vec::new(),
            maxwidths: Vec::new(),
            out: String::new(),
        }
    }

    /// The writer `kubectl describe` uses: `Init(buf, 0, 8, 2, ' ', 0)`.
    pub fn describe() -> TabWriter {
        TabWriter::new(0, 2, false)
    }

    /// The writer `kubectl get` uses (cli-runtime `GetNewTabWriter`):
    /// `NewWriter(out, 6, 4, 3, ' ', RememberWidths)`.
    pub fn table() -> TabWriter {
        TabWriter::new(6, 3, true)
    }

    /// Writes text (`Write`).
    pub fn write(&mut self, text: &str) {
        let mut start = 0;
        for (i, ch) in text.char_indices() {
            if matches!(ch, '\t' | '\u{b}' | '\n' | '\u{c}') {
                self.append(&text[start..i]);
                start = i + 1;
                let ncells = self.terminate_cell(ch == '\t');
                if ch == '\n' || ch == '\u{c}' {
                    self.lines.push(Vec::new());
                    if ch == '\u{c}' || ncells == 1 {
                        self.flush();
                    }
                }
            }
        }
        self.append(&text[start..]);
    }

    /// Forgets the widths remembered so far (`SetRememberedWidths(nil)`).
    pub fn forget_widths(&mut self) {
        self.maxwidths.clear();
    }

    fn append(&mut self, s: &str) {
        self.cell.text.push_str(s);
        self.cell.width += s.chars().count();
    }

    fn terminate_cell(&mut self, htab: bool) -> usize {
        let mut cell = std::mem::take(&mut self.cell);
        cell.htab = htab;
        let line = self.lines.last_mut();
        match line {
            Some(line) => {
                line.push(cell);
                line.len()
            }
            None => {
                self.lines.push(vec![cell]);
                1
            }
        }
    }

    /// Formats and writes out everything buffered (`Flush`).
    pub fn flush(&mut self) {
        if !self.cell.text.is_empty() {
            self.terminate_cell(false);
        }
        let n = self.lines.len();
        self.format(0, n);
        self.lines.clear();
        self.lines.push(Vec::new());
        self.cell = Cell::default();
        self.widths.clear();
    }

    /// Flushes and returns everything written.
    pub fn finish(mut self) -> String {
        self.flush();
        self.out
    }

    fn format(&mut self, mut line0: usize, line1: usize) {
        let column = self.widths.len();
        let mut this = line0;
        while this < line1 {
            if column + 1 >= self.lines[this].len() {
                this += 1;
                continue;
            }
            // A cell in this column: write the lines above, then find the column's block.
            self.write_lines(line0, this);
            line0 = this;
            let mut width = self.minwidth;
            while this < line1 {
                let line = &self.lines[this];
                if column + 1 >= line.len() {
                    break;
                }
                width = width.max(line[column].width + self.padding);
                this += 1;
            }
            if self.remember_widths {
                if self.maxwidths.len() < self.widths.len() {
                    let from = self.maxwidths.len();
                    self.maxwidths.extend_from_slice(&self.widths[from..]);
                }
                let k = self.widths.len();
                if self.maxwidths.len() == k {
                    self.maxwidths.push(width);
                } else if self.maxwidths[k] > width {
                    width = self.maxwidths[k];
                } else {
                    self.maxwidths[k] = width;
                }
            }
            self.widths.push(width);
            self.format(line0, this);
            self.widths.pop();
            line0 = this;
        }
        self.write_lines(line0, line1);
    }

    fn write_lines(&mut self, line0: usize, line1: usize) {
        for i in line0..line1 {
            let last = i + 1 == self.lines.len();
            for (j, c) in self.lines[i].iter().enumerate() {
                if !c.text.is_empty() {
                    self.out.push_str(&c.text);
                }
                if let Some(&w) = self.widths.get(j) {
                    for _ in c.width..w {
                        self.out.push(' ');
                    }
                }
            }
            if !last {
                self.out.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn describe(text: &str) -> String {
        let mut w = TabWriter::describe();
        w.write(text);
        w.finish()
    }

    #[test]
    fn aligns_a_block_and_leaves_the_last_cell_alone() {
        assert_eq!(describe("Name:\tnode-1\nRoles:\t<none>\n"), "Name:   node-1\nRoles:  <none>\n");
        // The trailing space of a cell counts towards its width.
        assert_eq!(describe("a \tb \tc\nlonger \tb\tc\n"), "a        b   c\nlonger   b   c\n");
    }

    #[test]
    fn a_line_without_a_tab_ends_the_block() {
        let out = describe("Name:\tx\nConditions:\n  Type\tStatus\n  ----\t------\n  Ready\tTrue\n");
        assert_eq!(out, "Name:  x\nConditions:\n  Type   Status\n  ----   ------\n  Ready  True\n");
    }

    #[test]
    fn columns_nest_by_runs_of_lines() {
        // Column 1 only spans the lines that have a cell past it.
        let out = describe("a\tbb\tc\naaaa\tb\naa\tbbbb\tc\n");
        assert_eq!(out, "a     bb  c\naaaa  b\naa    bbbb  c\n");
    }

    #[test]
    fn kubectl_get_uses_width_three_padding_and_a_minimum_of_six() {
        let mut w = TabWriter::table();
        w.write("NAME\tAGE\nn\t5s\n");
        assert_eq!(w.finish(), "NAME   AGE\nn      5s\n");
    }

    #[test]
    fn counts_characters_not_bytes() {
        assert_eq!(describe("é\tx\nab\ty\n"), "é   x\nab  y\n");
    }

    #[test]
    fn remembered_widths_survive_a_flush() {
        let mut w = TabWriter::table();
        w.write("LONGNAME\tX\n");
        w.flush();
        w.write("a\tb\n");
        assert_eq!(w.finish(), "LONGNAME   X\na          b\n");
    }
}
