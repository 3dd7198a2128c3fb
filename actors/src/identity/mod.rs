//! Real-name certification and the rules for minors (core-platform.md §2.15, §4.9, §5.3, §6,
//! §8.2): the ID number's own rules (`idcard`), the sealing of names and ID numbers at rest
//! (`vault`), and the play hours of minors (`minors`). The platform's calls are
//! `service.rs`; the identity check is a provider (`provider.rs`).

pub mod idcard;
pub mod minors;
pub mod provider;
pub mod qr_auth;
pub mod service;
pub mod vault;

use std::sync::Arc;

use crate::config::IdentityConfig;
use crate::identity::provider::{IdentityCheck, SandboxIdentity};

/// What the platform needs for certification: the seal, the identity check and the rules.
pub struct Identity {
    pub vault: vault::Vault,
    pub check: Arc<dyn IdentityCheck>,
    pub config: IdentityConfig,
    /// QR certification tickets (the in-car variant).
    pub qr: qr_auth::QrAuths,
}

impl Identity {
    /// From the configuration, with the sandbox identity check (the configuration was checked:
    /// a bad key falls back to all zeros only in a test that built one by hand).
    pub fn from_config(config: &IdentityConfig) -> Identity {
        Identity {
            vault: vault::Vault::new(&config.key().unwrap_or([0; 32])),
            check: Arc::new(SandboxIdentity::new(config.sandbox_mismatch.clone())),
            config: config.clone(),
            qr: qr_auth::QrAuths::default(),
        }
    }
}
