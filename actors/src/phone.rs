//! The phone number rule every feature applies (core-platform.md §5.1).

use crate::error::{DomainError, DomainResult};

/// Phone rule of core-platform.md §5.1: required; 11 digits starting with 1.
pub fn validate_phone(phone: &str) -> DomainResult<()> {
    if phone.is_empty() {
        return Err(DomainError::PhoneEmpty);
    }
    if phone.len() != 11 || !phone.starts_with('1') || !phone.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DomainError::PhoneMalformed);
    }
    Ok(())
}
