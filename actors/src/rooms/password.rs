//! The room password: exactly 4 digits, sent base64-encoded (social.md §5), kept as a per-room
//! salt and the SHA-256 of salt and digits (never the digits), and the bound on wrong tries
//! ([`Tries`]): 10,000 combinations would fall to a loop, so each user has a few a minute per
//! room.

use std::collections::{HashMap, VecDeque};

use base64::Engine;
use sha2::{Digest, Sha256};
use storage::RoomPassword;

use crate::error::RoomFormFault;

/// The digits inside a base64 password field; None or "" is no password.
pub fn decode(field: Option<&str>) -> Result<Option<String>, RoomFormFault> {
    let Some(field) = field.map(str::trim).filter(|f| !f.is_empty()) else {
        return Ok(None);
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(field)
        .map_err(|_| RoomFormFault::PasswordFormat)?;
    let text = String::from_utf8(bytes).map_err(|_| RoomFormFault::PasswordFormat)?;
    if text.len() == 4 && text.bytes().all(|b| b.is_ascii_digit()) {
        Ok(Some(text))
    } else {
        Err(RoomFormFault::PasswordFormat)
    }
}

/// The base64 of the digits (what `room/params` shows back to the host).
pub fn encode(digits: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(digits)
}

/// The stored form of `digits` under a new random salt.
pub fn protect(digits: &str) -> RoomPassword {
    let salt: String = (0..16).map(|_| format!("{:x}", rand::random::<u8>() & 0xf)).collect();
    let hash = hash(&salt, digits);
    RoomPassword { salt, hash }
}

/// Whether `digits` is the password.
pub fn matches(stored: &RoomPassword, digits: &str) -> bool {
    hash(&stored.salt, digits) == stored.hash
}

fn hash(salt: &str, digits: &str) -> String {
    let mut h = Sha256::new();
    h.update(salt.as_bytes());
    h.update(b":");
    h.update(digits.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Wrong tries per user in one room: at most `per_minute` in any minute.
#[derive(Debug, Default)]
pub struct Tries {
    wrong: HashMap<i64, VecDeque<i64>>,
}

impl Tries {
    /// None: the user may try now; Some(secs): not before that many seconds.
    pub fn wait(&mut self, uid: i64, now: i64, per_minute: u32) -> Option<u64> {
        let q = self.wrong.get_mut(&uid)?;
        while q.front().is_some_and(|t| *t <= now - 60_000) {
            q.pop_front();
        }
        if q.is_empty() {
            self.wrong.remove(&uid);
            return None;
        }
        if q.len() < per_minute as usize {
            return None;
        }
        let oldest = *q.front()?;
        Some(((oldest + 60_000 - now).max(1) as u64).div_ceil(1000))
    }

    /// Records a wrong try.
    pub fn wrong(&mut self, uid: i64, now: i64) {
        self.wrong.entry(uid).or_default().push_back(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_is_base64_of_four_digits() {
        let check = |field: Option<&str>, want: Result<Option<&str>, RoomFormFault>| {
            assert_eq!(decode(field), want.map(|o| o.map(str::to_string)), "{field:?}")
        };
        check(None, Ok(None));
        check(Some(""), Ok(None));
        check(Some("MTIzNA=="), Ok(Some("1234")));
        check(Some(&encode("0007")), Ok(Some("0007")));
        check(Some("MTIz"), Err(RoomFormFault::PasswordFormat)); // "123"
        check(Some("MTIzNDU="), Err(RoomFormFault::PasswordFormat)); // "12345"
        check(Some("YWJjZA=="), Err(RoomFormFault::PasswordFormat)); // "abcd"
        check(Some("1234"), Err(RoomFormFault::PasswordFormat)); // not base64 of digits
        check(Some("!!"), Err(RoomFormFault::PasswordFormat));
    }

    #[test]
    fn stored_salted_never_plain() {
        let a = protect("1234");
        let b = protect("1234");
        assert_ne!(a.salt, b.salt);
        assert_ne!(a.hash, b.hash, "the salt differs per room");
        assert!(!a.hash.contains("1234"));
        assert!(matches(&a, "1234"));
        assert!(!matches(&a, "1235"));
    }

    // Five wrong tries a minute; the sixth waits until the first is a minute old.
    #[test]
    fn wrong_tries_are_bounded() {
        let mut t = Tries::default();
        for i in 0..5 {
            assert_eq!(t.wait(1, 1_000 + i, 5), None);
            t.wrong(1, 1_000 + i);
        }
        assert_eq!(t.wait(1, 2_000, 5), Some(59));
        assert_eq!(t.wait(2, 2_000, 5), None, "per user");
        assert_eq!(t.wait(1, 61_000, 5), None);
    }
}
