//! What every handler shares: the platform, the mode and the site's settings. The assembly
//! (`lib.rs`) builds it at start; the routes, the extractors and the middleware read it.

use std::path::PathBuf;

use actors::Platform;

use crate::config::Mode;
use crate::security;

/// What every handler shares.
pub struct AppState {
    pub platform: Platform,
    pub mode: Mode,
    pub frontend_dir: PathBuf,
    /// Site origins, cookie flags, the CSP, the body deadline.
    pub security: security::Policy,
    /// The customer service's address (`social/kf`).
    pub service_url: String,
    /// The operator token's SHA-256 (hex, lower case), if operators may act (`auth::Operator`).
    pub operator_token_sha256: Option<String>,
}
