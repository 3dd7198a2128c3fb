//! [`SmallStr`]: a string kept inline when short, so the per-player strings that live as long as
//! a player waits (device numbers, the sandbox outbox's phones and codes) cost no heap
//! allocation of their own. Small allocations that outlive the burst that made them (a peak of
//! logins) pin the allocator's pages: without them the pages of the burst go back to the system.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// Bytes kept inline (a 32-character device id or an 11-digit phone fits).
const INLINE: usize = 38;

#[derive(Clone)]
pub enum SmallStr {
    Inline { len: u8, buf: [u8; INLINE] },
    Heap(Box<str>),
}

impl SmallStr {
    pub fn new(s: &str) -> SmallStr {
        if s.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..s.len()].copy_from_slice(s.as_bytes());
            SmallStr::Inline { len: s.len() as u8, buf }
        } else {
            SmallStr::Heap(s.into())
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            // The inline bytes are a copy of a `&str`'s, cut at its length.
            SmallStr::Inline { len, buf } => std::str::from_utf8(&buf[..*len as usize]).unwrap_or_default(),
            SmallStr::Heap(s) => s,
        }
    }
}

impl Default for SmallStr {
    fn default() -> Self {
        SmallStr::new("")
    }
}

impl Deref for SmallStr {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for SmallStr {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for SmallStr {
    fn from(s: &str) -> Self {
        SmallStr::new(s)
    }
}

impl From<String> for SmallStr {
    fn from(s: String) -> Self {
        SmallStr::new(&s)
    }
}

impl PartialEq for SmallStr {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for SmallStr {}

impl Hash for SmallStr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As `str` hashes, so that `Borrow<str>` lookups find it.
        self.as_str().hash(state)
    }
}

impl fmt::Debug for SmallStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SmallStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for SmallStr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for SmallStr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SmallStr, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Ok(SmallStr::new(&s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_inline_long_on_the_heap_same_text() {
        let short = SmallStr::new("13800000000");
        assert!(matches!(short, SmallStr::Inline { .. }));
        assert_eq!(&*short, "13800000000");
        let id = "a".repeat(INLINE);
        assert!(matches!(SmallStr::new(&id), SmallStr::Inline { .. }));
        let long = SmallStr::new(&"设备".repeat(10));
        assert!(matches!(long, SmallStr::Heap(_)));
        assert_eq!(long.as_str(), "设备".repeat(10));
        let mut m = std::collections::HashMap::new();
        m.insert(SmallStr::new("13800000000"), 1);
        assert_eq!(m.get("13800000000"), Some(&1), "looked up by &str");
        assert_eq!(SmallStr::default().as_str(), "");
        assert!(std::mem::size_of::<SmallStr>() <= 40);
    }
}
