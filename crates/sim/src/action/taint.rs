//! The argument of `taint:NODE/SPEC@TIME` and of `kubectl taint nodes NODE SPEC`: one taint to
//! add or remove, parsed and validated as kubectl 1.32 does (`pkg/cmd/taint/utils.go`
//! `parseTaint`, apimachinery's `IsQualifiedName` and `IsValidLabelValue` messages).

/// The effects a taint may have (`validateTaintEffect`).
const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// One taint argument of `kubectl taint`: `KEY[=VALUE]:EFFECT` adds, `KEY[:EFFECT]-` removes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaintEdit {
    pub key: String,
    pub value: String,
    /// Empty only for a removal of every effect (`KEY-`).
    pub effect: String,
    pub remove: bool,
}

impl TaintEdit {
    /// Parses one argument as kubectl does; the error is kubectl's message (without `error: `).
    pub fn parse(spec: &str) -> Result<TaintEdit, String> {
        let (body, remove) = match spec.strip_suffix('-') {
            Some(b) => (b, true),
            None => (spec, false),
        };
        let invalid = |why: Vec<String>| {
            if why.is_empty() {
                format!("invalid taint spec: {spec}")
            } else {
                format!("invalid taint spec: {spec}, {}", why.join("; "))
            }
        };
        let parts: Vec<&str> = body.split(':').collect();
        let (key, value, effect) = match parts.as_slice() {
            [key] => (*key, "", ""),
            [kv, effect] => {
                if !EFFECTS.contains(effect) {
                    return Err(format!("invalid taint effect: {effect}, unsupported taint effect"));
                }
                let kv: Vec<&str> = kv.split('=').collect();
                match kv.as_slice() {
                    [key] => (*key, "", *effect),
                    [key, value] => {
                        let why = label_value_errors(value);
                        if !why.is_empty() {
                            return Err(invalid(why));
                        }
                        (*key, *value, *effect)
                    }
                    _ => return Err(invalid(Vec::new())),
                }
            }
            _ => return Err(invalid(Vec::new())),
        };
        let why = qualified_name_errors(key);
        if !why.is_empty() {
            return Err(invalid(why));
        }
        if !remove && effect.is_empty() {
            return Err(format!("invalid taint spec: {spec}"));
        }
        // A removal carries only the key and the effect.
        let value = if remove { "" } else { value };
        Ok(TaintEdit { key: key.into(), value: value.into(), effect: effect.into(), remove })
    }

    /// The argument as kubectl takes it.
    pub fn spec(&self) -> String {
        let mut s = self.key.clone();
        if !self.value.is_empty() {
            s.push('=');
            s.push_str(&self.value);
        }
        if !self.effect.is_empty() {
            s.push(':');
            s.push_str(&self.effect);
        }
        if self.remove {
            s.push('-');
        }
        s
    }

    /// The taint a removal names, as `Taint.ToString()` prints it in `taint "…" not found`.
    pub fn removed_text(&self) -> String {
        if self.effect.is_empty() { self.key.clone() } else { format!("{}:{}", self.key, self.effect) }
    }
}

/// `validation.IsValidLabelValue`'s messages.
fn label_value_errors(value: &str) -> Vec<String> {
    let mut why = Vec::new();
    if value.len() > 63 {
        why.push("must be no more than 63 characters".to_string());
    }
    if !value.is_empty() && !is_name_part(value) {
        why.push(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must \
             start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for \
             validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
                .to_string(),
        );
    }
    why
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, whole.
fn is_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`, whole.
fn is_dns_subdomain(s: &str) -> bool {
    s.split('.').all(|l| {
        let b = l.as_bytes();
        !b.is_empty()
            && b[0].is_ascii_alphanumeric()
            && b[b.len() - 1].is_ascii_alphanumeric()
            && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
    })
}

const NAME_FORMAT: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and \
end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is \
'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/// `validation.IsQualifiedName`'s messages.
fn qualified_name_errors(key: &str) -> Vec<String> {
    let parts: Vec<&str> = key.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                return vec!["prefix part must be non-empty".into()];
            }
            let mut why = Vec::new();
            if prefix.len() > 253 {
                why.push("prefix part must be no more than 253 characters".into());
            }
            if !is_dns_subdomain(prefix) {
                why.push(
                    "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \
                     '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex \
                     used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
                        .into(),
                );
            }
            if !why.is_empty() {
                return why;
            }
            *name
        }
        _ => {
            return vec![
                "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end \
                 with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for \
                 validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and \
                 '/' (e.g. 'example.com/MyName')"
                    .into(),
            ];
        }
    };
    let mut why = Vec::new();
    if name.is_empty() {
        why.push("name part must be non-empty".into());
    } else if name.len() > 63 {
        why.push("name part must be no more than 63 characters".into());
    }
    if !name.is_empty() && !is_name_part(name) {
        why.push(NAME_FORMAT.into());
    }
    why
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_as_kubectl_parses_them() {
        let add = TaintEdit::parse("node.kubernetes.io/out-of-service=nodeshutdown:NoExecute").unwrap();
        assert_eq!(
            (add.key.as_str(), add.value.as_str(), add.effect.as_str(), add.remove),
            ("node.kubernetes.io/out-of-service", "nodeshutdown", "NoExecute", false)
        );
        assert_eq!(add.spec(), "node.kubernetes.io/out-of-service=nodeshutdown:NoExecute");
        let rm = TaintEdit::parse("node.kubernetes.io/out-of-service:NoExecute-").unwrap();
        assert!(rm.remove && rm.effect == "NoExecute");
        assert_eq!(TaintEdit::parse("dedicated-").unwrap().spec(), "dedicated-");
        assert_eq!(
            TaintEdit::parse("a:Sometimes").unwrap_err(),
            "invalid taint effect: Sometimes, unsupported taint effect"
        );
        assert_eq!(TaintEdit::parse("dedicated").unwrap_err(), "invalid taint spec: dedicated");
        assert_eq!(TaintEdit::parse("a=b=c:NoSchedule").unwrap_err(), "invalid taint spec: a=b=c:NoSchedule");
        assert!(TaintEdit::parse("Bad_/x:NoSchedule").unwrap_err().contains("prefix part a lowercase RFC 1123"));
        assert!(TaintEdit::parse("k=-v:NoSchedule").unwrap_err().contains("a valid label must be"));
        assert!(TaintEdit::parse("-k:NoSchedule").unwrap_err().contains("name part must consist"));
    }
}
