//! Names and ID numbers at rest: sealed with XChaCha20-Poly1305 under a key from the
//! configuration (a random 24-byte nonce each, stored before the ciphertext). Only the domain
//! holds the key; storage keeps bytes it cannot read, and nothing prints the plain text.

use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use rand::Rng;

const NONCE: usize = 24;

pub struct Vault {
    cipher: XChaCha20Poly1305,
}

impl std::fmt::Debug for Vault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Vault(..)")
    }
}

impl Vault {
    pub fn new(key: &[u8; 32]) -> Vault {
        Vault {
            cipher: XChaCha20Poly1305::new(key.into()),
        }
    }

    /// The sealed bytes of a text: nonce, then ciphertext and tag.
    pub fn seal(&self, plain: &str) -> Vec<u8> {
        let nonce: [u8; NONCE] = rand::rng().random();
        let mut out = nonce.to_vec();
        // sealing in memory cannot fail (the text is far under the cipher's limit)
        out.extend(self.cipher.encrypt(&XNonce::from(nonce), plain.as_bytes()).unwrap_or_default());
        out
    }

    /// The text of sealed bytes; None when they were not sealed with this key or were altered.
    pub fn open(&self, sealed: &[u8]) -> Option<String> {
        if sealed.len() < NONCE {
            return None;
        }
        let (nonce, body) = sealed.split_at(NONCE);
        let nonce: [u8; NONCE] = nonce.try_into().ok()?;
        let plain = self.cipher.decrypt(&XNonce::from(nonce), body).ok()?;
        String::from_utf8(plain).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_text_opens_only_with_its_key_and_unaltered() {
        let v = Vault::new(&[7; 32]);
        let a = v.seal("110101200802281234");
        let b = v.seal("110101200802281234");
        assert_ne!(a, b, "a fresh nonce each time");
        assert!(!a.windows(6).any(|w| w == b"110101"), "no plain text in the sealed bytes");
        assert_eq!(v.open(&a).as_deref(), Some("110101200802281234"));
        assert_eq!(Vault::new(&[8; 32]).open(&a), None);
        let mut altered = a.clone();
        *altered.last_mut().unwrap() ^= 1;
        assert_eq!(v.open(&altered), None);
        assert_eq!(v.open(&[1, 2, 3]), None);
    }
}
