//! Label selectors as `k8s.io/apimachinery/pkg/labels` parses, prints and matches them
//! (`labels.Parse`, `internalSelector.String`, `Requirement.Matches`), and the query-string
//! escaping of Go's `url.QueryEscape`, which client-go's `url.Values.Encode` uses.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Serialize, Serializer};

/// A requirement's operator (`selection.Operator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Equals,
    DoubleEquals,
    NotEquals,
    In,
    NotIn,
    Exists,
    DoesNotExist,
    GreaterThan,
    LessThan,
}

/// One requirement: a key, an operator and its values (sorted, as `NewRequirement` keeps them).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Requirement {
    key: String,
    op: Op,
    values: Vec<String>,
}

/// A parsed label selector: its requirements sorted by key, as `labels.Parse` returns them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    requirements: Vec<Requirement>,
}

/// `validation.IsQualifiedName`: an optional DNS-subdomain prefix and `/`, then a name of at most
/// 63 characters, alphanumeric at both ends, with `-`, `_` and `.` inside.
fn qualified_name(key: &str) -> bool {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    let name_ok = !name.is_empty() && name.len() <= 63 && label_value(name);
    let prefix_ok = prefix.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 253
            && p.split('.').all(|l| {
                !l.is_empty()
                    && l.len() <= 63
                    && l.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    && !l.starts_with('-')
                    && !l.ends_with('-')
            })
    });
    name_ok && prefix_ok
}

/// `validation.IsValidLabelValue`: empty, or at most 63 characters, alphanumeric at both ends,
/// with `-`, `_` and `.` inside.
fn label_value(v: &str) -> bool {
    let alnum = |b: u8| b.is_ascii_alphanumeric();
    v.is_empty()
        || (v.len() <= 63
            && v.bytes().all(|b| alnum(b) || matches!(b, b'-' | b'_' | b'.'))
            && alnum(v.as_bytes()[0])
            && alnum(v.as_bytes()[v.len() - 1]))
}

/// The lexer's tokens (`labels.Lexer`).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    Comma,
    Open,
    Close,
    Not,
    NotEquals,
    Equals,
    DoubleEquals,
    Greater,
    Less,
    In,
    NotIn,
}

fn lex(s: &str) -> Result<Vec<Token>, String> {
    const SPECIAL: &[u8] = b"!=><(),";
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if SPECIAL.contains(&c) {
            let two = b.get(i + 1).copied();
            let (t, n) = match (c, two) {
                (b'!', Some(b'=')) => (Token::NotEquals, 2),
                (b'=', Some(b'=')) => (Token::DoubleEquals, 2),
                (b'!', _) => (Token::Not, 1),
                (b'=', _) => (Token::Equals, 1),
                (b'>', _) => (Token::Greater, 1),
                (b'<', _) => (Token::Less, 1),
                (b'(', _) => (Token::Open, 1),
                (b')', _) => (Token::Close, 1),
                _ => (Token::Comma, 1),
            };
            out.push(t);
            i += n;
        } else {
            let start = i;
            while i < b.len() && !b[i].is_ascii_whitespace() && !SPECIAL.contains(&b[i]) {
                i += 1;
            }
            let word = &s[start..i];
            out.push(match word {
                "in" => Token::In,
                "notin" => Token::NotIn,
                w => Token::Ident(w.to_string()),
            });
        }
    }
    Ok(out)
}

impl Selector {
    /// `labels.Parse`: the selector, or why it is not one.
    pub fn parse(text: &str) -> Result<Selector, String> {
        let tokens = lex(text)?;
        let mut requirements = Vec::new();
        let mut i = 0;
        let ident = |t: Option<&Token>| match t {
            Some(Token::Ident(s)) => Some(s.clone()),
            _ => None,
        };
        while i < tokens.len() {
            let (key, op) = if tokens[i] == Token::Not {
                let key = ident(tokens.get(i + 1)).ok_or("found no key after '!'")?;
                i += 2;
                (key, Op::DoesNotExist)
            } else {
                let key = ident(tokens.get(i)).ok_or_else(|| format!("found {:?}, expected a key", tokens[i]))?;
                i += 1;
                let op = match tokens.get(i) {
                    None | Some(Token::Comma) => Op::Exists,
                    Some(Token::Equals) => Op::Equals,
                    Some(Token::DoubleEquals) => Op::DoubleEquals,
                    Some(Token::NotEquals) => Op::NotEquals,
                    Some(Token::In) => Op::In,
                    Some(Token::NotIn) => Op::NotIn,
                    Some(Token::Greater) => Op::GreaterThan,
                    Some(Token::Less) => Op::LessThan,
                    Some(t) => return Err(format!("found {t:?}, expected an operator")),
                };
                if op != Op::Exists {
                    i += 1;
                }
                (key, op)
            };
            if !qualified_name(&key) {
                return Err(format!("invalid label key \"{key}\""));
            }
            let mut values = Vec::new();
            match op {
                Op::Exists | Op::DoesNotExist => {}
                Op::In | Op::NotIn => {
                    if tokens.get(i) != Some(&Token::Open) {
                        return Err("expected '(' after in/notin".into());
                    }
                    i += 1;
                    loop {
                        match tokens.get(i) {
                            Some(Token::Ident(v)) => {
                                values.push(v.clone());
                                i += 1;
                            }
                            // An empty value between commas, or before ')'.
                            Some(Token::Comma | Token::Close) => values.push(String::new()),
                            _ => return Err("unterminated value list".into()),
                        }
                        match tokens.get(i) {
                            Some(Token::Comma) => i += 1,
                            Some(Token::Close) => {
                                i += 1;
                                break;
                            }
                            _ => return Err("expected ',' or ')'".into()),
                        }
                    }
                }
                _ => {
                    match tokens.get(i) {
                        Some(Token::Ident(v)) => {
                            values.push(v.clone());
                            i += 1;
                        }
                        // `k=` selects an empty value.
                        None | Some(Token::Comma) => values.push(String::new()),
                        Some(t) => return Err(format!("found {t:?}, expected a value")),
                    }
                    if matches!(op, Op::GreaterThan | Op::LessThan) && values[0].parse::<i64>().is_err() {
                        return Err(format!("for 'Gt', 'Lt' operators, the value must be an integer: {}", values[0]));
                    }
                }
            }
            if let Some(bad) = values.iter().find(|v| !label_value(v)) {
                return Err(format!("invalid label value: \"{bad}\""));
            }
            values.sort();
            requirements.push(Requirement { key, op, values });
            match tokens.get(i) {
                None => {}
                Some(Token::Comma) => {
                    i += 1;
                    if i == tokens.len() {
                        return Err("found end of string, expected a key".into());
                    }
                }
                Some(t) => return Err(format!("found {t:?}, expected ','")),
            }
        }
        requirements.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(Selector { requirements })
    }

    /// Whether the selector selects everything.
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// `Selector.Matches`.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.requirements.iter().all(|r| {
            let has = labels.get(&r.key);
            match r.op {
                Op::Equals | Op::DoubleEquals | Op::In => has.is_some_and(|v| r.values.contains(v)),
                Op::NotEquals | Op::NotIn => has.is_none_or(|v| !r.values.contains(v)),
                Op::Exists => has.is_some(),
                Op::DoesNotExist => has.is_none(),
                Op::GreaterThan | Op::LessThan => {
                    let (Some(v), Ok(bound)) = (has.and_then(|v| v.parse::<i64>().ok()), r.values[0].parse::<i64>())
                    else {
                        return false;
                    };
                    if r.op == Op::GreaterThan { v > bound } else { v < bound }
                }
            }
        })
    }
}

impl fmt::Display for Selector {
    /// `internalSelector.String()`: the requirements joined by `,`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if r.op == Op::DoesNotExist {
                f.write_str("!")?;
            }
            f.write_str(&r.key)?;
            let op = match r.op {
                Op::Exists | Op::DoesNotExist => continue,
                Op::Equals => "=",
                Op::DoubleEquals => "==",
                Op::NotEquals => "!=",
                Op::In => " in (",
                Op::NotIn => " notin (",
                Op::GreaterThan => ">",
                Op::LessThan => "<",
            };
            f.write_str(op)?;
            f.write_str(&r.values.join(","))?;
            if matches!(r.op, Op::In | Op::NotIn) {
                f.write_str(")")?;
            }
        }
        Ok(())
    }
}

/// The longest `--pod-selector` the simulation keeps.
pub const MAX_SELECTOR: usize = 64;

/// A label selector's canonical text, kept inline so that an action stays `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SelectorText {
    len: u8,
    bytes: [u8; MAX_SELECTOR],
}

impl Default for SelectorText {
    fn default() -> SelectorText {
        SelectorText::EMPTY
    }
}

impl SelectorText {
    /// No selector: every Pod.
    pub const EMPTY: SelectorText = SelectorText { len: 0, bytes: [0; MAX_SELECTOR] };

    /// Parses `text` and keeps its canonical form; an error if it is no selector or too long.
    pub fn parse(text: &str) -> Result<SelectorText, String> {
        let canonical = Selector::parse(text)?.to_string();
        if canonical.len() > MAX_SELECTOR {
            return Err(format!("a selector of at most {MAX_SELECTOR} characters"));
        }
        let mut bytes = [0; MAX_SELECTOR];
        bytes[..canonical.len()].copy_from_slice(canonical.as_bytes());
        Ok(SelectorText { len: canonical.len() as u8, bytes })
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The selector (the text was parsed when it was made).
    pub fn selector(&self) -> Selector {
        Selector::parse(self.as_str()).unwrap_or_default()
    }
}

impl fmt::Debug for SelectorText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for SelectorText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Go's `url.QueryEscape`: every byte but `A-Z a-z 0-9 - _ . ~` as `%XX`, a space as `+`.
pub fn query_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(char::from(b)),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn selectors_print_as_labels_parse_prints_them() {
        let canonical = |s: &str| Selector::parse(s).map(|s| s.to_string());
        assert_eq!(canonical("app=web").as_deref(), Ok("app=web"));
        assert_eq!(canonical(" tier in (b, a) , app==web").as_deref(), Ok("app==web,tier in (a,b)"));
        assert_eq!(canonical("!canary,app!=db,x").as_deref(), Ok("app!=db,!canary,x"));
        assert_eq!(canonical("n>3").as_deref(), Ok("n>3"));
        assert_eq!(canonical("").as_deref(), Ok(""));
        for bad in ["=web", "app=web,", "app in web", "app in (a", "a b", "-x=1", "n>x", "app=we$b"] {
            assert!(Selector::parse(bad).is_err(), "{bad} is no selector");
        }
        assert_eq!(canonical("app=").as_deref(), Ok("app="));
    }

    #[test]
    fn selectors_match_as_requirements_do() {
        let web = labels(&[("app", "web"), ("n", "5")]);
        let matches = |s: &str| Selector::parse(s).unwrap().matches(&web);
        assert!(matches("app=web") && matches("app in (db,web)") && matches("tier!=x") && matches("!tier"));
        assert!(matches("n>3") && !matches("n<3") && !matches("app notin (web)") && !matches("tier"));
        assert!(matches(""));
    }

    #[test]
    fn text_is_kept_inline_and_escaped_as_go_does() {
        let t = SelectorText::parse("tier in (b,a)").unwrap();
        assert_eq!(t.as_str(), "tier in (a,b)");
        assert!(SelectorText::parse(&format!("a={}", "x".repeat(63))).is_err());
        assert_eq!(query_escape("spec.nodeName=node-1"), "spec.nodeName%3Dnode-1");
        assert_eq!(query_escape("tier in (a,b)"), "tier+in+%28a%2Cb%29");
    }
}
