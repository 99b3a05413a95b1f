//! YAML exactly as `kubectl get -o yaml` prints it.
//!
//! kubectl's `YAMLPrinter` calls `sigs.k8s.io/yaml.Marshal`, which turns the object into JSON,
//! reads that JSON back with go-yaml v2 (`yaml.Unmarshal` into `interface{}`) and marshals the
//! result with go-yaml v2's emitter, a Go port of libyaml's `emitter.c`. This module is a port of
//! the parts of that path a JSON value can reach (gopkg.in/yaml.v2 v2.4: `encode.go`, `resolve.go`,
//! `sorter.go`, `emitterc.go`), so that the output is the same byte for byte:
//!
//! * keys in go-yaml's order (`sorter.go`): a "natural" order in which runs of digits compare as
//!   numbers and a non-letter sorts before a letter (`a9` < `a10`, `_a` < `Z`);
//! * block style with two-space indentation; a sequence that is a mapping value is not indented
//!   relative to its key (`taints:\n- effect: NoSchedule`); empty mappings and sequences as `{}`
//!   and `[]`; `null`, `true`, `false`;
//! * a string is written plain unless it would read back as something else: anything go-yaml
//!   resolves to a bool (`true`, `yes`, `on`, `n`, ...), null (`""`, `~`, `null`), an int, a float
//!   or a timestamp (`"0"`, `"110"`, `"2026-03-02T09:00:00Z"`), or a base-60 number (`"1:20"`)
//!   is double-quoted; the emitter then falls back to single quotes (with `''` for `'`) when a
//!   plain scalar is not allowed (leading or trailing space, `: `, ` #`, a leading indicator such
//!   as `-`, `[`, `{`, `*`, `&`, ...), and to double quotes with escapes for non-printable
//!   characters (tabs, control characters, characters outside the BMP);
//! * strings with a line feed as literal blocks (`|`, `|-`, `|+`, with an indentation hint when
//!   the text starts with a space);
//! * long plain and quoted strings folded at the first space past column 80, continuing two
//!   spaces deeper than the key, as go-yaml v2.4 does (`best_width` 80).
//!
//! Numbers follow kubectl's path too (see `gofmt`): integers that fit an `int64` print as such,
//! other numbers as Go prints a `float64` (`1.5`, `1e+21`).
//!
//! Two differences from kubectl remain, both for characters no Kubernetes object carries:
//! kubectl fails on strings holding DEL or C1 control characters (its YAML reader rejects them)
//! while this module escapes them; and Unicode letter and digit classes in key sorting are
//! approximated with Rust's `is_alphabetic` and `is_numeric` outside ASCII. A U+0085 (NEL) is
//! folded into a space (or line feeds) as kubectl's JSON-to-YAML round trip does.

use serde_json::{Map, Value};

use super::gofmt;

mod resolve;
mod sorter;

use resolve::{is_base60_float, resolves_to_string};
use sorter::sorted_entries;

/// go-yaml's `best_width`: plain and quoted scalars fold at the first space past this column.
const BEST_WIDTH: usize = 80;
/// go-yaml's `best_indent`.
const BEST_INDENT: isize = 2;
/// The longest key (in bytes) written as a simple `key: value` rather than `? key\n: value`.
const MAX_SIMPLE_KEY: usize = 128;

/// `value` as `kubectl -o yaml` prints it, ending with a newline.
pub fn to_string(value: &Value) -> String {
    let mut e = Emitter::default();
    e.emit_node(value, Context::default());
    // DOCUMENT-END (implicit): end the last line.
    e.write_indent();
    // The emitter copies whole characters of valid strings: the bytes are UTF-8.
    String::from_utf8(e.out).unwrap_or_default()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// Where a node sits (`yaml_emitter_emit_node`'s flags; the root and sequence flags only matter
/// for output this module never produces).
#[derive(Clone, Copy, Debug, Default)]
struct Context {
    mapping: bool,
    simple_key: bool,
}

/// `yaml_emitter_t`, reduced to what block output of JSON values uses.
#[derive(Debug)]
struct Emitter {
    out: Vec<u8>,
    /// Characters (not bytes) on the current line.
    column: usize,
    indent: isize,
    indents: Vec<isize>,
    /// Whether the last character written was whitespace.
    whitespace: bool,
    /// Whether the current line holds only indentation (and indicators that count as such).
    indention: bool,
    flow_level: usize,
    mapping_context: bool,
    simple_key_context: bool,
}

impl Default for Emitter {
    fn default() -> Emitter {
        // yaml_emitter_emit_stream_start
        Emitter {
            out: Vec::new(),
            column: 0,
            indent: -1,
            indents: Vec::new(),
            whitespace: true,
            indention: true,
            flow_level: 0,
            mapping_context: false,
            simple_key_context: false,
        }
    }
}

/// What `yaml_emitter_analyze_scalar` finds out about a scalar.
#[derive(Clone, Copy, Debug)]
struct Analysis {
    multiline: bool,
    flow_plain_allowed: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

impl Emitter {
    // ---- nodes ----

    fn emit_node(&mut self, value: &Value, ctx: Context) {
        self.mapping_context = ctx.mapping;
        self.simple_key_context = ctx.simple_key;
        match value {
            Value::Array(items) => {
                if self.flow_level > 0 || items.is_empty() {
                    self.emit_flow_sequence(items);
                } else {
                    self.emit_block_sequence(items);
                }
            }
            Value::Object(map) => {
                if self.flow_level > 0 || map.is_empty() {
                    self.emit_flow_mapping(map);
                } else {
                    self.emit_block_mapping(map);
                }
            }
            Value::Null => self.emit_scalar(b"null", Style::Plain),
            Value::Bool(b) => self.emit_scalar(if *b { b"true" } else { b"false" }, Style::Plain),
            Value::Number(n) => self.emit_scalar(gofmt::yaml_number(n).as_bytes(), Style::Plain),
            Value::String(s) => self.emit_string(s),
        }
    }

    /// `encoder.stringv`: a string is plain unless it would resolve to another type, a literal
    /// block if it holds a line feed.
    fn emit_string(&mut self, s: &str) {
        let s = fold_nel(s);
        let style = if s.contains('\n') {
            Style::Literal
        } else if resolves_to_string(&s) && !is_base60_float(&s) {
            Style::Plain
        } else {
            Style::DoubleQuoted
        };
        self.emit_scalar(s.as_bytes(), style);
    }

    fn emit_block_sequence(&mut self, items: &[Value]) {
        self.increase_indent(false, self.mapping_context && !self.indention);
        for item in items {
            self.write_indent();
            self.write_indicator(b"-", true, false, true);
            self.emit_node(item, Context::default());
        }
        self.pop_indent();
    }

    fn emit_flow_sequence(&mut self, items: &[Value]) {
        self.write_indicator(b"[", true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.write_indicator(b",", false, false, false);
            }
            if self.column > BEST_WIDTH {
                self.write_indent();
            }
            self.emit_node(item, Context::default());
        }
        self.flow_level -= 1;
        self.pop_indent();
        self.write_indicator(b"]", false, false, false);
    }

    fn emit_block_mapping(&mut self, map: &Map<String, Value>) {
        self.increase_indent(false, false);
        for (key, value) in sorted_entries(map) {
            self.write_indent();
            if is_simple_key(key) {
                self.emit_node_key(key, true);
                self.write_indicator(b":", false, false, false);
            } else {
                self.write_indicator(b"?", true, false, true);
                self.emit_node_key(key, false);
                self.write_indent();
                self.write_indicator(b":", true, false, true);
            }
            self.emit_node(value, Context { mapping: true, ..Context::default() });
        }
        self.pop_indent();
    }

    fn emit_flow_mapping(&mut self, map: &Map<String, Value>) {
        self.write_indicator(b"{", true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        for (i, (key, value)) in sorted_entries(map).into_iter().enumerate() {
            if i > 0 {
                self.write_indicator(b",", false, false, false);
            }
            if self.column > BEST_WIDTH {
                self.write_indent();
            }
            if is_simple_key(key) {
                self.emit_node_key(key, true);
                self.write_indicator(b":", false, false, false);
            } else {
                self.write_indicator(b"?", true, false, false);
                self.emit_node_key(key, false);
                if self.column > BEST_WIDTH {
                    self.write_indent();
                }
                self.write_indicator(b":", true, false, false);
            }
            self.emit_node(value, Context { mapping: true, ..Context::default() });
        }
        self.flow_level -= 1;
        self.pop_indent();
        self.write_indicator(b"}", false, false, false);
    }

    fn emit_node_key(&mut self, key: &str, simple: bool) {
        self.mapping_context = true;
        self.simple_key_context = simple;
        self.emit_string(key);
    }

    /// `yaml_emitter_emit_scalar`: pick the style the text allows, then write it one level deeper
    /// (the indentation of continuation lines).
    fn emit_scalar(&mut self, value: &[u8], requested: Style) {
        let analysis = analyze_scalar(value);
        let style = self.select_style(requested, &analysis, value.is_empty());
        self.increase_indent(true, false);
        let allow_breaks = !self.simple_key_context;
        match style {
            Style::Plain => self.write_plain(value, allow_breaks),
            Style::SingleQuoted => self.write_single_quoted(value, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(value, allow_breaks),
            Style::Literal => self.write_literal(value),
        }
        self.pop_indent();
    }

    /// `yaml_emitter_select_scalar_style` (no tags, implicit scalars).
    fn select_style(&self, requested: Style, a: &Analysis, empty: bool) -> Style {
        let mut style = requested;
        if self.simple_key_context && a.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Plain {
            let plain_allowed = if self.flow_level > 0 { a.flow_plain_allowed } else { a.block_plain_allowed };
            if !plain_allowed || (empty && (self.flow_level > 0 || self.simple_key_context)) {
                style = Style::SingleQuoted;
            }
        }
        if style == Style::SingleQuoted && !a.single_quoted_allowed {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!a.block_allowed || self.flow_level > 0 || self.simple_key_context) {
            style = Style::DoubleQuoted;
        }
        style
    }

    // ---- output primitives (emitterc.go) ----

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn put(&mut self, b: u8) {
        self.out.push(b);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push(b'\n');
        self.column = 0;
    }

    /// Copies one character of `s` at `*i`.
    fn write(&mut self, s: &[u8], i: &mut usize) {
        let w = width(s[*i]).max(1).min(s.len() - *i);
        self.out.extend_from_slice(&s[*i..*i + w]);
        self.column += 1;
        *i += w;
    }

    fn write_all(&mut self, s: &[u8]) {
        let mut i = 0;
        while i < s.len() {
            self.write(s, &mut i);
        }
    }

    fn write_break(&mut self, s: &[u8], i: &mut usize) {
        if s[*i] == b'\n' {
            self.put_break();
            *i += 1;
        } else {
            self.write(s, i);
            self.column = 0;
        }
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(b' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, indicator: &[u8], need_whitespace: bool, is_whitespace: bool, is_indention: bool) {
        if need_whitespace && !self.whitespace {
            self.put(b' ');
        }
        self.write_all(indicator);
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    fn write_plain(&mut self, value: &[u8], allow_breaks: bool) {
        if !self.whitespace {
            self.put(b' ');
        }
        let (mut spaces, mut breaks) = (false, false);
        let mut i = 0;
        while i < value.len() {
            if is_space(value, i) {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !is_space(value, i + 1) {
                    self.write_indent();
                    i += 1;
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else if is_break(value, i) {
                if !breaks && value[i] == b'\n' {
                    self.put_break();
                }
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(value, &mut i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single_quoted(&mut self, value: &[u8], allow_breaks: bool) {
        self.write_indicator(b"'", true, false, false);
        let (mut spaces, mut breaks) = (false, false);
        let mut i = 0;
        while i < value.len() {
            if is_space(value, i) {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < value.len() - 1
                    && !is_space(value, i + 1)
                {
                    self.write_indent();
                    i += 1;
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else if is_break(value, i) {
                if !breaks && value[i] == b'\n' {
                    self.put_break();
                }
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if value[i] == b'\'' {
                    self.put(b'\'');
                }
                self.write(value, &mut i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator(b"'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted(&mut self, value: &[u8], allow_breaks: bool) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        let mut spaces = false;
        self.write_indicator(b"\"", true, false, false);
        let mut i = 0;
        while i < value.len() {
            if !is_printable(value, i) || is_bom(value) || is_break(value, i) || value[i] == b'"' || value[i] == b'\\' {
                let w = width(value[i]).max(1).min(value.len() - i);
                let v = decode(&value[i..i + w]);
                i += w;
                self.put(b'\\');
                match v {
                    0x00 => self.put(b'0'),
                    0x07 => self.put(b'a'),
                    0x08 => self.put(b'b'),
                    0x09 => self.put(b't'),
                    0x0A => self.put(b'n'),
                    0x0B => self.put(b'v'),
                    0x0C => self.put(b'f'),
                    0x0D => self.put(b'r'),
                    0x1B => self.put(b'e'),
                    0x22 => self.put(b'"'),
                    0x5C => self.put(b'\\'),
                    0x85 => self.put(b'N'),
                    0xA0 => self.put(b'_'),
                    0x2028 => self.put(b'L'),
                    0x2029 => self.put(b'P'),
                    _ => {
                        let digits = if v <= 0xFF {
                            self.put(b'x');
                            2
                        } else if v <= 0xFFFF {
                            self.put(b'u');
                            4
                        } else {
                            self.put(b'U');
                            8
                        };
                        for k in (0..digits).rev() {
                            self.put(HEX[((v >> (4 * k)) & 0xF) as usize]);
                        }
                    }
                }
                spaces = false;
            } else if is_space(value, i) {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i > 0 && i < value.len() - 1 {
                    self.write_indent();
                    if is_space(value, i + 1) {
                        self.put(b'\\');
                    }
                    i += 1;
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else {
                self.write(value, &mut i);
                spaces = false;
            }
        }
        self.write_indicator(b"\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_block_scalar_hints(&mut self, value: &[u8]) {
        if is_space(value, 0) || is_break(value, 0) {
            let hint = [b'0' + BEST_INDENT as u8];
            self.write_indicator(&hint, false, false, false);
        }
        let chomp = if value.is_empty() {
            Some(b'-')
        } else {
            let mut i = value.len() - 1;
            while i > 0 && value[i] & 0xC0 == 0x80 {
                i -= 1;
            }
            if !is_break(value, i) {
                Some(b'-')
            } else if i == 0 {
                Some(b'+')
            } else {
                i -= 1;
                while i > 0 && value[i] & 0xC0 == 0x80 {
                    i -= 1;
                }
                if is_break(value, i) { Some(b'+') } else { None }
            }
        };
        if let Some(c) = chomp {
            self.write_indicator(&[c], false, false, false);
        }
    }

    fn write_literal(&mut self, value: &[u8]) {
        self.write_indicator(b"|", true, false, false);
        self.write_block_scalar_hints(value);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        let mut i = 0;
        while i < value.len() {
            if is_break(value, i) {
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(value, &mut i);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

// ---- scalar analysis (yaml_emitter_analyze_scalar) ----

fn analyze_scalar(value: &[u8]) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            flow_plain_allowed: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let (mut block_indicators, mut flow_indicators) = (false, false);
    let (mut line_breaks, mut special_characters) = (false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) = (false, false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);

    if value.starts_with(b"---") || value.starts_with(b"...") {
        block_indicators = true;
        flow_indicators = true;
    }
    let mut preceded_by_whitespace = true;
    let mut i = 0;
    while i < value.len() {
        let w = width(value[i]).max(1);
        let followed_by_whitespace = i + w >= value.len() || is_blank(value, i + w);
        if i == 0 {
            match value[i] {
                b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%'
                | b'@' | b'`' => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                b'?' | b':' => {
                    flow_indicators = true;
                    if followed_by_whitespace {
                        block_indicators = true;
                    }
                }
                b'-' if followed_by_whitespace => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                _ => {}
            }
        } else {
            match value[i] {
                b',' | b'?' | b'[' | b']' | b'{' | b'}' => flow_indicators = true,
                b':' => {
                    flow_indicators = true;
                    if followed_by_whitespace {
                        block_indicators = true;
                    }
                }
                b'#' if preceded_by_whitespace => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                _ => {}
            }
        }
        if !is_printable(value, i) {
            special_characters = true;
        }
        if is_space(value, i) {
            if i == 0 {
                leading_space = true;
            }
            if i + w == value.len() {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(value, i) {
            line_breaks = true;
            if i == 0 {
                leading_break = true;
            }
            if i + w == value.len() {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_blankz(value, i);
        i += w;
    }

    let mut a = Analysis {
        multiline: line_breaks,
        flow_plain_allowed: true,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special_characters {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if flow_indicators {
        a.flow_plain_allowed = false;
    }
    if block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// Whether a key is written as a simple key (`yaml_emitter_check_simple_key` for a scalar).
fn is_simple_key(key: &str) -> bool {
    let key = fold_nel(key);
    !analyze_scalar(key.as_bytes()).multiline && key.len() <= MAX_SIMPLE_KEY
}

// ---- byte classes (yamlprivateh.go); past the end reads as NUL, as in libyaml ----

pub(super) fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

fn width(b: u8) -> usize {
    if b & 0x80 == 0x00 {
        1
    } else if b & 0xE0 == 0xC0 {
        2
    } else if b & 0xF0 == 0xE0 {
        3
    } else if b & 0xF8 == 0xF0 {
        4
    } else {
        0
    }
}

fn is_printable(b: &[u8], i: usize) -> bool {
    let (c, c1, c2) = (at(b, i), at(b, i + 1), at(b, i + 2));
    c == 0x0A
        || (0x20..=0x7E).contains(&c)
        || (c == 0xC2 && c1 >= 0xA0)
        || (c > 0xC2 && c < 0xED)
        || (c == 0xED && c1 < 0xA0)
        || c == 0xEE
        || (c == 0xEF && !(c1 == 0xBB && c2 == 0xBF) && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF)))
}

/// go-yaml's `is_bom` looks at the start of the value whatever the position, so a value that
/// starts with a BOM has every character escaped.
fn is_bom(b: &[u8]) -> bool {
    b.starts_with(&[0xEF, 0xBB, 0xBF])
}

fn is_space(b: &[u8], i: usize) -> bool {
    at(b, i) == b' '
}

fn is_blank(b: &[u8], i: usize) -> bool {
    matches!(at(b, i), b' ' | b'\t')
}

fn is_break(b: &[u8], i: usize) -> bool {
    let (c, c1, c2) = (at(b, i), at(b, i + 1), at(b, i + 2));
    c == b'\r' || c == b'\n' || (c == 0xC2 && c1 == 0x85) || (c == 0xE2 && c1 == 0x80 && (c2 == 0xA8 || c2 == 0xA9))
}

fn is_blankz(b: &[u8], i: usize) -> bool {
    is_blank(b, i) || is_break(b, i) || at(b, i) == 0
}

fn decode(bytes: &[u8]) -> u32 {
    let first = bytes[0];
    let (mut v, w) = match width(first) {
        2 => (u32::from(first & 0x1F), 2),
        3 => (u32::from(first & 0x0F), 3),
        4 => (u32::from(first & 0x07), 4),
        _ => (u32::from(first & 0x7F), 1),
    };
    for &b in bytes.iter().take(w).skip(1) {
        v = (v << 6) + u32::from(b & 0x3F);
    }
    v
}

// ---- what kubectl's JSON-to-YAML round trip does to a string first ----

/// go-yaml reads kubectl's JSON as YAML, where a raw NEL (U+0085, which Go's JSON encoder leaves
/// unescaped) inside a double-quoted scalar is a line break and gets folded: the blanks around a
/// run of breaks disappear, one break becomes a space and `n` breaks become `n - 1` line feeds.
#[cfg(target_arch = "wasm32")]
fn fold_nel(s: &str) -> std::borrow::Cow<'_, str> {
    // In the page the emitter prints the simulation's objects, whose strings never hold NEL.
    std::borrow::Cow::Borrowed(s)
}

#[cfg(not(target_arch = "wasm32"))]
fn fold_nel(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\u{85}') {
        return std::borrow::Cow::Borrowed(s);
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        // A run of spaces and NELs that holds at least one NEL.
        let start = i;
        let mut j = i;
        let mut nels = 0;
        while j < chars.len() && (chars[j] == ' ' || chars[j] == '\u{85}') {
            if chars[j] == '\u{85}' {
                nels += 1;
            }
            j += 1;
        }
        if nels == 0 {
            if j > start {
                out.extend(&chars[start..j]);
                i = j;
            } else {
                out.push(chars[i]);
                i += 1;
            }
            continue;
        }
        // Spaces before the first NEL are trailing blanks of a line; spaces after a NEL are
        // leading blanks of the next. Both go.
        if nels == 1 {
            out.push(' ');
        } else {
            out.extend(std::iter::repeat_n('\n', nels - 1));
        }
        i = j;
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::resolve::finite_decimal;
    use super::sorter::{key_less, merge_sort};
    use super::*;

    #[test]
    fn resolves_like_go_yaml() {
        for s in
            ["0", "110", "-5", "+5", "08", "0x1F", "0o17", "017", "0b101", "1_000", "1.5", ".5", "1e3", "1E+3", "-.5"]
        {
            assert!(!resolves_to_string(s), "{s} is a number");
        }
        for s in
            ["2026-03-02T09:00:00Z", "2026-03-02", "2026-3-2", "2026-03-02 09:00:00", "2026-03-02t09:00:00.5+01:00"]
        {
            assert!(!resolves_to_string(s), "{s} is a timestamp");
        }
        for s in ["", "~", "null", "true", "yes", "No", "on", "OFF", "y", "N", ".inf", "-.Inf", ".NaN"] {
            assert!(!resolves_to_string(s), "{s:?} is not a string");
        }
        for s in
            ["v1.34.1", "1.2.3", "10.0.0.1", "2026-13-01", "2026-02-30", "1e400", "0x", "-", "+", "yess", "._5", "abc"]
        {
            assert!(resolves_to_string(s), "{s} is a string");
        }
        assert!(is_base60_float("1:20"));
        assert!(is_base60_float("-190:20:30.15"));
        assert!(!is_base60_float("1:60"));
        assert!(!is_base60_float("10.0.0.1:6443"));
    }

    #[test]
    fn finite_decimals_without_float_parsing() {
        for (s, finite) in [
            ("1.5", true),
            ("1e308", true),
            ("1e309", false),
            ("1e400", false),
            ("-1e400", false),
            ("1.7976931348623157e308", true),
            ("1.7976931348623158e308", true),
            ("1.797693134862315807937289714053e308", true),
            ("1.79769313486231581e308", false),
            ("1.7976931348623159e308", false),
            (
                "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791",
                true,
            ),
            ("1e-400", true),
            ("0.000e999", true),
            ("1e99999999999999999999", false),
            ("1e-99999999999999999999", true),
            (".5e3", true),
        ] {
            assert_eq!(finite_decimal(s), finite, "{s}");
            assert_eq!(s.parse::<f64>().unwrap().is_finite(), finite, "{s} (std agrees)");
        }
    }

    #[test]
    fn sorts_keys_like_go_yaml() {
        let mut keys = vec!["a10", "a9", "Z", "_a", "b", "a", "hugepages-2Mi", "hugepages-1Gi", "Port"];
        keys = merge_sort(keys, &|a: &&str, b: &&str| key_less(a, b));
        assert_eq!(keys, ["_a", "Port", "Z", "a", "a9", "a10", "b", "hugepages-1Gi", "hugepages-2Mi"]);
    }

    #[test]
    fn folds_nel_like_the_round_trip() {
        assert_eq!(fold_nel("a \u{85} b"), "a b");
        assert_eq!(fold_nel("a\u{85}\u{85}b"), "a\nb");
        assert_eq!(fold_nel("a\u{85}\u{85}\u{85}b"), "a\n\nb");
        assert_eq!(fold_nel("a  b"), "a  b");
    }
}
