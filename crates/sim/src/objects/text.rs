//! [`Text`]: an object's name, namespace or uid, shared between its versions.
//!
//! Every version of an object repeats its metadata's names: a Pod goes through some six versions,
//! a Node through one a status PATCH, and each copied its name, namespace, generateName and uid
//! (four allocations, 120 bytes and more) until they were kept behind one reference count. A
//! [`Text`] is 16 bytes where a `String` is 24, holds nothing when empty, and reads as a `&str`
//! (`Deref`, `as_str`, comparisons with `str` and `String`, `Display`).

use std::borrow::Borrow;
use std::fmt;
use std::sync::Arc;

/// An immutable string shared by its clones (see the module's documentation).
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Text(Option<Arc<str>>);

impl Text {
    /// The text, borrowed.
    pub fn as_str(&self) -> &str {
        self.0.as_deref().unwrap_or("")
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::hash::Hash for Text {
    /// As the `str` (a [`Text`] is looked up by `&str` in hashed maps).
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text((!s.is_empty()).then(|| s.into()))
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text((!s.is_empty()).then(|| s.into()))
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Text {
        Text::from(s.as_str())
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_and_empty_holds_nothing() {
        let name = Text::from(String::from("node-1"));
        let copy = name.clone();
        assert!(matches!((&name.0, &copy.0), (Some(a), Some(b)) if Arc::ptr_eq(a, b)));
        assert_eq!(Text::from(""), Text::default());
        assert!(Text::from(String::new()).0.is_none(), "an empty text allocates nothing");
        assert_eq!((name.as_str(), &*copy, copy.len()), ("node-1", "node-1", 6));
        let owned = String::from("node-1");
        assert!(name == "node-1", "equal to a &str");
        assert!("node-1" == name, "and the other way round");
        assert!(name == owned, "equal to a String");
        assert!(owned == name, "a String equal to it");
        assert_eq!(format!("{name} {name:?}"), "node-1 \"node-1\"");
        assert_eq!(serde_json::to_string(&name).unwrap(), "\"node-1\"");
        let (a, b) = (Text::from("a"), Text::from("b"));
        assert!(a < b, "ordered as the strs");
        assert!(Text::default() < a, "the empty text first");
        assert_eq!(std::mem::size_of::<Text>(), 2 * std::mem::size_of::<usize>());
    }
}
