//! The external account centre (core-platform.md §2.6, §7.2): the site where a player changes
//! their avatar and profile (its pages HOME, INFO and AVATAR). The platform opens it through a
//! signed agent login, and the account centre tells the platform of every change by a signed
//! notice on the platform's callback route.
//!
//! Both texts are the account centre's own format, `key=value` pairs joined by `&` with
//! percent-encoded values, signed with HMAC-SHA256 under the secret both sides share (hex):
//!
//! - the agent login (platform → account centre, in the agent-login address as
//!   `?payload={base64url of the text}&sign={hex}`): `uid`, `target` (HOME, INFO or AVATAR),
//!   `iat` and `exp` (ms), `nonce` (one use), `redirect_url` (a path of the site);
//! - the notice (account centre → platform, `POST /api/user/v1/uc/notify` with the signature in
//!   [`SIGNATURE_HEADER`]): `uid`, `field` (nickname or avatar), `value`, `id` (one per change),
//!   `at` (ms).
//!
//! [`SandboxUc`] (dev mode only) behaves like the real one: its agent-login page (served by the
//! platform at `/api/dev/uc/agent-login`) checks the signature, the expiry and that the login was
//! not used before, then keeps a session of its own in which a person changes the nickname or
//! picks one of its preset avatars; each change goes to the platform as a signed notice over HTTP
//! (the facade's [`UcTransport`]), and the page says whether the platform took it.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use base64::Engine;
use futures_util::future::BoxFuture;
use parking_lot::Mutex;

use crate::commerce::payment::{sign, verify_signature};
use crate::error::ProfileFault;

/// The header that carries a notice's signature.
pub const SIGNATURE_HEADER: &str = "Yoo-Uc-Signature";

/// The most characters of a nickname (after trimming); the fewest is [`NICKNAME_MIN_CHARS`].
pub const NICKNAME_MAX_CHARS: usize = 16;
pub const NICKNAME_MIN_CHARS: usize = 2;
/// The longest avatar address taken.
pub const AVATAR_MAX_LEN: usize = 256;
/// The longest redirect path taken.
pub const REDIRECT_MAX_LEN: usize = 512;
/// How long a sandbox session (after its agent login) lasts.
pub const SESSION_TTL_MS: i64 = 30 * 60 * 1000;
/// The preset avatars of the sandbox, numbered 1..=this.
pub const SANDBOX_AVATARS: u32 = 6;
/// Spent logins and sessions kept at most (older ones are dropped as they expire).
const KEPT_MAX: usize = 100_000;

/// The account centre's page an agent login opens (§7.2; AVATAR by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Target {
    Home,
    Info,
    #[default]
    Avatar,
}

impl Target {
    pub const ALL: [Target; 3] = [Target::Home, Target::Info, Target::Avatar];

    pub fn parse(s: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.as_str() == s)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Target::Home => "HOME",
            Target::Info => "INFO",
            Target::Avatar => "AVATAR",
        }
    }
}

/// What the platform vouches for when it opens the account centre.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentLogin {
    pub uid: i64,
    pub target: Target,
    /// ms
    pub issued_at: i64,
    /// ms; the account centre refuses the login from then on.
    pub expires_at: i64,
    /// One use: the account centre refuses a login it has seen.
    pub nonce: String,
    /// A path of the site the account centre leads back to.
    pub redirect_url: String,
}

impl AgentLogin {
    /// The signed text.
    pub fn encode(&self) -> String {
        format!(
            "uid={}&target={}&iat={}&exp={}&nonce={}&redirect_url={}",
            self.uid,
            self.target.as_str(),
            self.issued_at,
            self.expires_at,
            pct_encode(&self.nonce),
            pct_encode(&self.redirect_url)
        )
    }

    /// Reads a text; None when a field is missing, repeated, malformed or unknown.
    pub fn decode(text: &str) -> Option<AgentLogin> {
        let f = fields(text, &["uid", "target", "iat", "exp", "nonce", "redirect_url"])?;
        Some(AgentLogin {
            uid: f["uid"].parse().ok()?,
            target: Target::parse(&f["target"])?,
            issued_at: f["iat"].parse().ok()?,
            expires_at: f["exp"].parse().ok()?,
            nonce: f["nonce"].clone(),
            redirect_url: f["redirect_url"].clone(),
        })
    }
}

/// An agent login ready to open: the address, and the payload and signature it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedLogin {
    /// The account centre's agent-login address with the payload and its signature.
    pub url: String,
    /// base64url (no padding) of the login's text.
    pub payload: String,
    /// HMAC-SHA256 of the login's text, hex.
    pub sign: String,
    pub target: Target,
    pub expires_at: i64,
}

/// One change the account centre made to a player's profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProfileChange {
    Nickname(String),
    /// The new avatar's address.
    Avatar(String),
}

/// The account centre's notice of a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileNotice {
    pub uid: i64,
    pub change: ProfileChange,
    /// One per change: a notice delivered again carries the same.
    pub id: String,
    /// ms
    pub at: i64,
}

impl ProfileNotice {
    /// The notice's body as the account centre sends it.
    pub fn encode(&self) -> String {
        let (field, value) = match &self.change {
            ProfileChange::Nickname(v) => ("nickname", v),
            ProfileChange::Avatar(v) => ("avatar", v),
        };
        format!(
            "uid={}&field={field}&value={}&id={}&at={}",
            self.uid,
            pct_encode(value),
            pct_encode(&self.id),
            self.at
        )
    }

    /// Reads a body; None when a field is missing, repeated, malformed or unknown.
    pub fn decode(body: &str) -> Option<ProfileNotice> {
        let f = fields(body, &["uid", "field", "value", "id", "at"])?;
        let value = f["value"].clone();
        Some(ProfileNotice {
            uid: f["uid"].parse().ok()?,
            change: match f["field"].as_str() {
                "nickname" => ProfileChange::Nickname(value),
                "avatar" => ProfileChange::Avatar(value),
                _ => return None,
            },
            id: f["id"].clone(),
            at: f["at"].parse().ok()?,
        })
    }
}

/// The `key=value&...` pairs of `text`, decoded, when the keys are exactly `keys`.
fn fields(text: &str, keys: &[&str]) -> Option<HashMap<String, String>> {
    let mut out = HashMap::new();
    for pair in text.split('&') {
        let (k, v) = pair.split_once('=')?;
        if !keys.contains(&k) || out.insert(k.to_owned(), pct_decode(v)?).is_some() {
            return None;
        }
    }
    (out.len() == keys.len()).then_some(out)
}

/// Percent-encodes every byte but the unreserved characters (and `/`).
pub fn pct_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Decodes percent-encoding (`+` is a space, as forms send it); None for a bad escape or bytes
/// that are not UTF-8.
pub fn pct_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// A nickname the account centre may set: trimmed, 2–16 characters, one plain visible line.
pub fn check_nickname(raw: &str) -> Result<String, ProfileFault> {
    let name = raw.trim();
    if !crate::rooms::state::visible(name) {
        return Err(ProfileFault::NicknameEmpty);
    }
    if name.chars().any(crate::rooms::state::steering) {
        return Err(ProfileFault::NicknameChars);
    }
    let n = name.chars().count();
    if !(NICKNAME_MIN_CHARS..=NICKNAME_MAX_CHARS).contains(&n) {
        return Err(ProfileFault::NicknameLength);
    }
    Ok(name.to_owned())
}

/// An avatar address the platform shows: a path of this site or an https address, at most
/// [`AVATAR_MAX_LEN`] characters, nothing that could leave an attribute or a URL.
pub fn check_avatar(raw: &str) -> Result<String, ProfileFault> {
    let a = raw.trim();
    let plain = a
        .bytes()
        .all(|b| b.is_ascii_graphic() && !matches!(b, b'"' | b'\'' | b'<' | b'>' | b'\\' | b'`'));
    let origin_ok = (a.starts_with('/') && !a.starts_with("//")) || a.starts_with("https://");
    if a.is_empty() || a.len() > AVATAR_MAX_LEN || !plain || !origin_ok {
        return Err(ProfileFault::AvatarInvalid);
    }
    Ok(a.to_owned())
}

/// A redirect address the account centre may lead back to: a path of this site (not `//host`,
/// no backslash, no control or space characters), at most [`REDIRECT_MAX_LEN`] bytes.
pub fn check_redirect(raw: &str) -> Option<String> {
    let ok = raw.starts_with('/')
        && !raw.starts_with("//")
        && raw.len() <= REDIRECT_MAX_LEN
        && raw.bytes().all(|b| b.is_ascii_graphic() && b != b'\\');
    ok.then(|| raw.to_owned())
}

/// The agent login's text in a payload (base64url, no padding).
pub fn payload_text(payload: &str) -> Option<String> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).ok()?;
    String::from_utf8(bytes).ok()
}

/// The preset avatar `n` of the sandbox (1..=[`SANDBOX_AVATARS`]).
pub fn sandbox_avatar(n: u32) -> Option<String> {
    (1..=SANDBOX_AVATARS).contains(&n).then(|| format!("/api/dev/uc/avatar/{n}.svg"))
}

pub trait AccountCentre: Send + Sync + 'static {
    /// The provider's name (the log).
    fn name(&self) -> &'static str;
    /// Signs an agent login and builds the agent-login address that carries it.
    fn sign_login(&self, login: &AgentLogin) -> SignedLogin;
    /// Checks a notice's signature and reads it.
    fn verify_notice(&self, body: &str, signature: &str) -> Result<ProfileNotice, String>;
    /// The sandbox, when this is it (dev mode).
    fn sandbox(&self) -> Option<&SandboxUc> {
        None
    }
}

/// How the account centre's notices reach the platform: the facade posts them to its own
/// callback route over HTTP, like an account centre on the internet would.
pub trait UcTransport: Send + Sync + 'static {
    /// Posts `body` with its signature; Ok when the platform took it, Err with its message.
    fn post(&self, body: String, signature: String) -> BoxFuture<'static, Result<(), String>>;
}

/// Why the sandbox's pages refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UcRefusal {
    /// The payload or its signature is wrong.
    Forged,
    /// The login's time is over (or it claims to come from the future).
    Expired,
    /// The login was used before.
    Replayed,
    /// No such session, or it ended.
    NoSession,
    /// The change breaks a rule.
    Form(ProfileFault),
    /// The platform did not take the notice.
    NotTaken(String),
}

/// A person's session on the sandbox after an agent login.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UcSession {
    pub uid: i64,
    pub target: Target,
    pub redirect_url: String,
    pub expires_at: i64,
}

/// The sandbox account centre (dev mode only).
pub struct SandboxUc {
    key: Vec<u8>,
    /// The agent-login page's address (a path of this server in dev mode).
    agent_login_url: String,
    /// The logins used, until they expire (a login is good once).
    spent: Mutex<HashMap<String, i64>>,
    /// Sessions by their id (in the page's address).
    sessions: Mutex<HashMap<String, UcSession>>,
    /// Set by the facade when it listens.
    transport: OnceLock<Arc<dyn UcTransport>>,
}

impl SandboxUc {
    pub fn new(key: &[u8], agent_login_url: &str) -> SandboxUc {
        SandboxUc {
            key: key.to_vec(),
            agent_login_url: agent_login_url.to_owned(),
            spent: Mutex::default(),
            sessions: Mutex::default(),
            transport: OnceLock::new(),
        }
    }

    pub fn set_transport(&self, t: Arc<dyn UcTransport>) {
        let _ = self.transport.set(t);
    }

    /// The agent-login page: checks the signature, the expiry and the one use, then opens a
    /// session; answers its id.
    pub fn agent_login(&self, payload: &str, signature: &str, now_ms: i64) -> Result<(String, UcSession), UcRefusal> {
        let text = payload_text(payload).ok_or(UcRefusal::Forged)?;
        if !verify_signature(&self.key, &text, signature) {
            return Err(UcRefusal::Forged);
        }
        let login = AgentLogin::decode(&text).ok_or(UcRefusal::Forged)?;
        if now_ms >= login.expires_at || login.issued_at > now_ms + 60_000 {
            return Err(UcRefusal::Expired);
        }
        {
            let mut spent = self.spent.lock();
            spent.retain(|_, exp| *exp > now_ms);
            if spent.contains_key(&login.nonce) {
                return Err(UcRefusal::Replayed);
            }
            if spent.len() >= KEPT_MAX {
                return Err(UcRefusal::Expired);
            }
            spent.insert(login.nonce.clone(), login.expires_at);
        }
        let session = UcSession {
            uid: login.uid,
            target: login.target,
            redirect_url: login.redirect_url,
            expires_at: now_ms + SESSION_TTL_MS,
        };
        let id = crate::secrets::random_hex(16);
        let mut sessions = self.sessions.lock();
        sessions.retain(|_, s| s.expires_at > now_ms);
        if sessions.len() >= KEPT_MAX {
            return Err(UcRefusal::NoSession);
        }
        sessions.insert(id.clone(), session.clone());
        Ok((id, session))
    }

    /// A live session.
    pub fn session(&self, id: &str, now_ms: i64) -> Option<UcSession> {
        self.sessions.lock().get(id).filter(|s| s.expires_at > now_ms).cloned()
    }

    /// A person changed their profile on the sandbox's page: the change is checked, then sent
    /// to the platform as a signed notice; Ok when the platform took it.
    pub fn submit(&self, session_id: &str, change: ProfileChange, now_ms: i64) -> BoxFuture<'static, Result<(), UcRefusal>> {
        let checked = self.session(session_id, now_ms).ok_or(UcRefusal::NoSession).and_then(|s| {
            let change = match change {
                ProfileChange::Nickname(n) => ProfileChange::Nickname(check_nickname(&n).map_err(UcRefusal::Form)?),
                ProfileChange::Avatar(a) => ProfileChange::Avatar(check_avatar(&a).map_err(UcRefusal::Form)?),
            };
            Ok(ProfileNotice {
                uid: s.uid,
                change,
                id: crate::secrets::random_hex(12),
                at: now_ms,
            })
        });
        let transport = self.transport.get().cloned();
        let key = self.key.clone();
        Box::pin(async move {
            let notice = checked?;
            let transport = transport.ok_or_else(|| UcRefusal::NotTaken("no transport".into()))?;
            let body = notice.encode();
            let signature = sign(&key, &body);
            transport.post(body, signature).await.map_err(UcRefusal::NotTaken)
        })
    }

    /// A notice of this sandbox, signed (tests deliver one by hand: replayed, or altered).
    pub fn signed_notice(&self, notice: &ProfileNotice) -> (String, String) {
        let body = notice.encode();
        let signature = sign(&self.key, &body);
        (body, signature)
    }
}

impl AccountCentre for SandboxUc {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    fn sign_login(&self, login: &AgentLogin) -> SignedLogin {
        let text = login.encode();
        let sign = sign(&self.key, &text);
        let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(text.as_bytes());
        SignedLogin {
            url: format!("{}?payload={payload}&sign={sign}", self.agent_login_url),
            payload,
            sign,
            target: login.target,
            expires_at: login.expires_at,
        }
    }

    fn verify_notice(&self, body: &str, signature: &str) -> Result<ProfileNotice, String> {
        if !verify_signature(&self.key, body, signature) {
            return Err("bad signature".into());
        }
        ProfileNotice::decode(body).ok_or_else(|| "malformed notice".into())
    }

    fn sandbox(&self) -> Option<&SandboxUc> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn login(now: i64) -> AgentLogin {
        AgentLogin {
            uid: 7,
            target: Target::Info,
            issued_at: now,
            expires_at: now + 300_000,
            nonce: "n1".into(),
            redirect_url: "/user/detail?x=1&y=二".into(),
        }
    }

    fn payload_of(url: &str) -> (String, String) {
        let q = url.split_once('?').unwrap().1;
        let (p, s) = q.split_once('&').unwrap();
        (
            p.strip_prefix("payload=").unwrap().to_owned(),
            s.strip_prefix("sign=").unwrap().to_owned(),
        )
    }

    #[test]
    fn logins_and_notices_encode_and_decode() {
        let l = login(1000);
        assert_eq!(AgentLogin::decode(&l.encode()), Some(l.clone()));
        assert_eq!(AgentLogin::decode(&format!("{}&uid=8", l.encode())), None, "a repeated field");
        assert_eq!(AgentLogin::decode("uid=1"), None, "missing fields");
        let n = ProfileNotice {
            uid: 7,
            change: ProfileChange::Nickname("新 名字&=%".into()),
            id: "abc".into(),
            at: 5,
        };
        assert_eq!(ProfileNotice::decode(&n.encode()), Some(n));
        assert_eq!(ProfileNotice::decode("uid=1&field=age&value=3&id=x&at=1"), None);
        assert_eq!(pct_decode("%zz"), None);
        assert_eq!(pct_decode("a+b%E4%BA%8C"), Some("a b二".into()));
    }

    #[test]
    fn the_sandbox_checks_signature_expiry_and_one_use() {
        let uc = SandboxUc::new(b"k", "/login");
        let now = 1_000_000;
        let signed = uc.sign_login(&login(now));
        assert!(signed.url.starts_with("/login?payload="));
        let (p, s) = payload_of(&signed.url);
        // forged: another key's signature, an altered payload
        let other = SandboxUc::new(b"other", "/login").sign_login(&login(now));
        assert_eq!(uc.agent_login(&other.payload, &other.sign, now), Err(UcRefusal::Forged));
        let mut altered = login(now);
        altered.uid = 8;
        let altered = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(altered.encode());
        assert_eq!(uc.agent_login(&altered, &s, now), Err(UcRefusal::Forged));
        assert_eq!(uc.agent_login("!!", &s, now), Err(UcRefusal::Forged));
        // expired
        assert_eq!(uc.agent_login(&p, &s, now + 300_000), Err(UcRefusal::Expired));
        // good once
        let (id, session) = uc.agent_login(&p, &s, now + 1).unwrap();
        assert_eq!((session.uid, session.target), (7, Target::Info));
        assert_eq!(session.redirect_url, "/user/detail?x=1&y=二");
        assert_eq!(uc.agent_login(&p, &s, now + 2), Err(UcRefusal::Replayed));
        assert!(uc.session(&id, now + 3).is_some());
        assert!(uc.session(&id, now + SESSION_TTL_MS + 1).is_none(), "sessions end");
        assert!(uc.session("nope", now).is_none());
    }

    #[test]
    fn nickname_avatar_and_redirect_rules() {
        assert_eq!(check_nickname("  小明同学 "), Ok("小明同学".into()));
        assert_eq!(check_nickname("   "), Err(ProfileFault::NicknameEmpty));
        assert_eq!(check_nickname("\u{200B}\u{FEFF}"), Err(ProfileFault::NicknameEmpty));
        assert_eq!(check_nickname("a"), Err(ProfileFault::NicknameLength));
        assert_eq!(check_nickname(&"名".repeat(17)), Err(ProfileFault::NicknameLength));
        assert!(check_nickname(&"名".repeat(16)).is_ok());
        assert_eq!(check_nickname("a\u{202E}bc"), Err(ProfileFault::NicknameChars));
        assert_eq!(check_nickname("ab\ncd"), Err(ProfileFault::NicknameChars));
        assert_eq!(check_avatar("/api/dev/uc/avatar/1.svg"), Ok("/api/dev/uc/avatar/1.svg".into()));
        assert!(check_avatar("https://cdn.example.com/a.png").is_ok());
        for bad in [
            "",
            "//evil.com/a.png",
            "javascript:alert(1)",
            "http://x/a.png",
            "/a\"onerror=x",
            "/a b",
            &format!("/{}", "a".repeat(300)),
        ] {
            assert_eq!(check_avatar(bad), Err(ProfileFault::AvatarInvalid), "{bad}");
        }
        assert_eq!(check_redirect("/user/detail"), Some("/user/detail".into()));
        for bad in ["", "user", "//evil.com", "/\\evil.com", "https://evil.com", "/a b", "/\u{0}"] {
            assert_eq!(check_redirect(bad), None, "{bad:?}");
        }
        assert_eq!(sandbox_avatar(1).as_deref(), Some("/api/dev/uc/avatar/1.svg"));
        assert_eq!(sandbox_avatar(0), None);
        assert_eq!(sandbox_avatar(SANDBOX_AVATARS + 1), None);
    }
}
